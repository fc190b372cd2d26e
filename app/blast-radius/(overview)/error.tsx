"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function BlastRadiusError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The blast-radius pages could not be shown"
      cause="Faultline could not read its blast-radius pages. They ship with Faultline, so this is a fault in this installation; the server log says which file."
      stillWorks={[
        { href: "/catalog", label: "Catalog" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
