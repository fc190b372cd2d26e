"use client";

import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function ComponentError(props: RouteErrorProps) {
  return (
    <RouteError
      {...props}
      title="This blast-radius page could not be shown"
      cause="Faultline could not read this component's page. They ship with Faultline, so this is a fault in this installation; the server log says which file."
      stillWorks={[
        { href: "/blast-radius", label: "All components" },
        { href: "/catalog", label: "Catalog" },
      ]}
    />
  );
}
