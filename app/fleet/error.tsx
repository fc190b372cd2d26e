"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function FleetError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The fleet could not be shown"
      cause="Faultline could not read its latest view of the clusters. The monitors may still be starting or have stopped; the server log says why. Reload in a moment."
      stillWorks={[
        { href: "/incidents", label: "Incidents" },
        { href: "/runbooks", label: "Runbooks" },
        { href: "/catalog", label: "Catalog" },
      ]}
    />
  );
}
