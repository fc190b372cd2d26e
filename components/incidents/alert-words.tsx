import type { TimelineEvent } from "./types";

// The words of this incident's alerts that Faultline did not understand (an alert the catalog does not map, a label
// value no error class reads): they count for no suspect, and the on-call should know what was not read.

const SHOWN = 20;

/** Each distinct word, with the alerts that carried it, from the alert_received events the page holds. */
export function unknownWordsOf(events: TimelineEvent[]): { word: string; alerts: string[] }[] {
  const words = new Map<string, Set<string>>();
  for (const e of events) {
    if (e.kind !== "alert_received" || !Array.isArray(e.payload.unknownWords)) continue;
    for (const word of e.payload.unknownWords) {
      if (typeof word !== "string") continue;
      const alerts = words.get(word) ?? new Set<string>();
      alerts.add(String(e.payload.alertname ?? ""));
      words.set(word, alerts);
    }
  }
  return [...words].map(([word, alerts]) => ({ word, alerts: [...alerts].filter(Boolean) }));
}

export function AlertWords({ events }: { events: TimelineEvent[] }) {
  const words = unknownWordsOf(events);
  if (words.length === 0) return null;
  return (
    <div className="callout" role="note" data-testid="alert-words">
      Faultline did not understand these words of the alerts here, so no suspect is ranked on them:
      <ul>
        {words.slice(0, SHOWN).map(({ word, alerts }) => (
          <li key={word}>
            <code>{word}</code>
            {alerts.length > 0 && !(alerts.length === 1 && alerts[0] === word) ? <span className="muted small"> in {alerts.join(", ")}</span> : null}
          </li>
        ))}
        {words.length > SHOWN ? <li>and {words.length - SHOWN} more</li> : null}
      </ul>
      <p className="muted small">Map the alert in catalog/alerts.yaml, or label it with a Faultline signal and subject (docs/alertmanager.md).</p>
    </div>
  );
}
