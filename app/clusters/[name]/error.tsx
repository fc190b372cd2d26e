"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function ClusterError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This cluster's health could not be shown"
      cause="Faultline could not read its latest view of the cluster. The monitor may still be starting or have stopped; the server log says why. Reload in a moment."
      stillWorks={[
        { href: "/fleet", label: "Fleet" },
        { href: "/incidents", label: "Incidents" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
