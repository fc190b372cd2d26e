"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function IncidentsError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The incident list could not be shown"
      cause="Faultline failed while showing the incidents (when only Postgres is down, the page says so with the reason; this is something else). The server log has the cause. Live signals do not depend on incidents."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
