"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function IncidentError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This incident could not be shown"
      cause="Faultline failed while showing this incident (when only Postgres is down, the page says so with the reason; this is something else). The server log has the cause. Live signals do not depend on incidents."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
