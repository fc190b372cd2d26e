"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function IncidentsError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="Incidents could not be loaded"
      cause="Faultline could not read the incident store (Postgres), so incidents cannot be listed or changed right now. Live signals do not depend on it."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/runbooks", label: "Runbooks" },
      ]}
    />
  );
}
