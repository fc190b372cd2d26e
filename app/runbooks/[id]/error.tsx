"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function RunbookError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This runbook could not be shown"
      cause="Faultline could not read this runbook or its diagram. The printable form or the catalog may still help; the server log says what failed."
      stillWorks={[
        { href: "/runbooks", label: "All runbooks" },
        { href: "/catalog", label: "Catalog" },
        { href: "/health", label: "Live health" },
      ]}
    />
  );
}
