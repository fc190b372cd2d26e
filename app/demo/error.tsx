"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function DemoError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="The demo cluster could not be shown"
      cause="Faultline could not read the simulated cluster. It may have stopped or failed to start; the server log says why. Nothing on a real cluster is affected."
      stillWorks={[
        { href: "/health", label: "Live health" },
        { href: "/catalog", label: "Catalog" },
      ]}
    />
  );
}
