import { clock, utc } from "@/components/ui/time";
import type { TimelineEvent } from "./types";

// Deliveries that did not bring all of their group: the on-call must know the incident shows only part of it.

interface Refusal {
  index: number;
  alert: string;
  fields: Record<string, string[]>;
}

/** The latest "Alertmanager left out N alerts" and "Faultline refused N alerts", above the rest of the page. */
export function AlertGaps({ gaps }: { gaps: TimelineEvent[] }) {
  if (gaps.length === 0) return null;
  return (
    <div className="callout" role="status" data-testid="alert-gaps">
      <ul>
        {gaps.map((g) => (
          <li key={g.id} data-kind={g.kind}>
            <time dateTime={g.at} title={utc(g.at)}>
              {clock(g.at)}
            </time>{" "}
            {g.summary}
            {g.kind === "alerts_refused" ? <Refusals shown={(g.payload.shown ?? []) as Refusal[]} total={Number(g.payload.refused ?? 0)} /> : null}
          </li>
        ))}
      </ul>
      <p className="muted small">
        The incident holds only the alerts delivered. Receiver settings: docs/alertmanager.md (max_alerts: 0 sends whole groups); refused alerts are also in
        Faultline&apos;s log.
      </p>
    </div>
  );
}

function Refusals({ shown, total }: { shown: Refusal[]; total: number }) {
  return (
    <ul className="small">
      {shown.map((r) => (
        <li key={r.index}>
          alert {r.index} ({r.alert}):{" "}
          {Object.entries(r.fields)
            .map(([field, messages]) => `${field} ${messages.join(", ")}`)
            .join("; ")}
        </li>
      ))}
      {total > shown.length ? <li>and {total - shown.length} more</li> : null}
    </ul>
  );
}
