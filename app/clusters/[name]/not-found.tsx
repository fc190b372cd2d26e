"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// Any name Faultline does not watch lands here, a hostile one too: it is shown as text, cut short, never used.
export default function ClusterNotFound() {
  let name = usePathname().split("/").pop() ?? "";
  try {
    name = decodeURIComponent(name);
  } catch {
    // shown as it came
  }
  return (
    <div className="panel" data-testid="cluster-not-found">
      <h1>No cluster named “{name.length > 80 ? `${name.slice(0, 80)}…` : name}”</h1>
      <p className="lead">Faultline does not watch a cluster by this name. The fleet lists every cluster it watches.</p>
      <p>
        <Link className="button button-primary" href="/fleet">
          Fleet
        </Link>
      </p>
    </div>
  );
}
