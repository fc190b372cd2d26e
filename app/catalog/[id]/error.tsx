"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function EntryError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This catalog entry could not be shown"
      cause="Faultline could not read this entry or what it links to. The catalog ships with Faultline, so this is a fault in this installation; the server log says which file."
      stillWorks={[{ href: "/catalog", label: "Catalog" }, { href: "/health", label: "Live health" }, { href: "/runbooks", label: "Runbooks" }]}
    />
  );
}
