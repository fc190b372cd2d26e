"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function AppError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="Something went wrong on this page"
      cause="Faultline failed while showing this page; the server log has the cause."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/catalog", label: "Catalog" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
