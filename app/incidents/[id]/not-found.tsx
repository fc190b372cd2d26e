"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// Pages cannot answer 400, so a malformed id gets this 404 too, worded for what was wrong.
export default function IncidentNotFound() {
  const raw = decodeURIComponent(usePathname().split("/").pop() ?? "");
  const numeric = /^\d+$/.test(raw);
  return (
    <div className="panel" data-testid="incident-not-found">
      <h1>{numeric ? `No incident #${raw}` : "Not an incident number"}</h1>
      <p className="lead">
        {numeric ? (
          "There is no incident with this number."
        ) : (
          <>
            Incident addresses are <code>/incidents/&lt;number&gt;</code>; “{raw}” is not a number.
          </>
        )}
      </p>
      <p>
        <Link className="button button-primary" href="/incidents">
          All incidents
        </Link>
      </p>
    </div>
  );
}
