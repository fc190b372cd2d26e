import Link from "next/link";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";

/** No incidents: say how they open (with this server's rules) and where to rehearse one. */
export function IncidentsEmpty({ rules, filtered }: { rules: IncidentRulesConfig; filtered: boolean }) {
  return (
    <div className="panel empty-state" data-testid="incidents-empty">
      <h2>{filtered ? "No incident matches these filters" : "No incidents"}</h2>
      <p>Incidents open by themselves, from the live signals and from alerts:</p>
      <ul>
        <li>
          a <strong>critical</strong> signal opens one after {rules.openAfterObservations} checks in a row or {rules.openAfterSeconds} s, whichever comes first;
          an <strong>unknown</strong> one after {rules.unknownOpenAfterSeconds} s; warnings {rules.openOnWarning ? "open them too" : "do not open them"};
        </li>
        <li>signals firing within {rules.groupWindowSeconds} s of each other on one cluster share an incident;</li>
        <li>
          it resolves by itself after {rules.resolveAfterSeconds} s healthy, and reopens if the signal fires again within {rules.reopenWindowSeconds} s;
        </li>
        <li>
          an Alertmanager alert sent to <code>/api/v1/alerts/alertmanager</code> opens one too (<Link href="/catalog">catalog</Link> and runbook ids in its
          labels link it).
        </li>
      </ul>
      <p className="muted">These rules come from FAULTLINE_INCIDENT_RULES (docs/incidents.md).</p>
      <p>
        <Link className="button button-primary" href="/demo">
          Rehearse one on the demo cluster
        </Link>{" "}
        inject a failure into the simulated cluster and watch the incident open here.
      </p>
    </div>
  );
}
