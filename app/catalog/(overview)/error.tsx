"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function CatalogError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The catalog could not be shown"
      cause="Faultline could not read its failure-mode catalog. The catalog ships with Faultline, so this is a fault in this installation; the server log says which file."
      stillWorks={[{ href: "/health", label: "Live health" }, { href: "/runbooks", label: "Runbooks" }]}
    />
  );
}
