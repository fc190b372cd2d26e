"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function RunbooksError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The runbooks could not be shown"
      cause="Faultline could not read its runbooks. They ship with Faultline, so this is a fault in this installation; the server log says which file."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/catalog", label: "Catalog" },
      ]}
    />
  );
}
