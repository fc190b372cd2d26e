"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function IncidentError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This incident could not be loaded"
      cause="Faultline could not read the incident store (Postgres), so this incident cannot be shown or changed right now. Live signals do not depend on it."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
