import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { ago } from "@/components/ui/time";

// Sources the API server throttles (429, or 503 with Retry-After): not down, but not fresh either, so
// the page says so, since when, and when Faultline asks again.

type Source = ClusterHealth["sources"][number];

export interface ThrottledLine {
  key: string;
  names: string[];
  status: number;
  since: string;
  retryInSeconds: number;
  lastSuccess?: string;
}

/** Throttled sources grouped by HTTP status: the earliest "since", the longest wait, the oldest answer. */
export function describeThrottled(sources: Source[], checkedAt: string): ThrottledLine[] {
  const groups = new Map<number, ThrottledLine>();
  const now = Date.parse(checkedAt);
  for (const s of sources) {
    if (!s.throttled) continue;
    const retryIn = Math.max(0, Math.ceil((Date.parse(s.throttled.retryAt) - now) / 1000));
    const group = groups.get(s.throttled.status);
    if (!group) {
      groups.set(s.throttled.status, {
        key: String(s.throttled.status),
        names: [s.name],
        status: s.throttled.status,
        since: s.throttled.since,
        retryInSeconds: retryIn,
        lastSuccess: s.lastSuccess,
      });
      continue;
    }
    group.names.push(s.name);
    if (s.throttled.since < group.since) group.since = s.throttled.since;
    group.retryInSeconds = Math.max(group.retryInSeconds, retryIn);
    if (!s.lastSuccess || (group.lastSuccess && s.lastSuccess < group.lastSuccess)) group.lastSuccess = s.lastSuccess;
  }
  return [...groups.values()];
}

export function ThrottledSources({ sources, checkedAt }: { sources: Source[]; checkedAt: string }) {
  const lines = describeThrottled(sources, checkedAt);
  if (lines.length === 0) return null;
  return (
    <div className="callout" data-testid="sources-throttled">
      {lines.map((g) => (
        <div key={g.key} data-status={g.status}>
          <strong>{g.names.join(", ")}</strong>: throttled by the API server (HTTP {g.status}), retrying in {g.retryInSeconds} s; throttled since {g.since} (
          {ago(g.since, checkedAt)}), last answer {g.lastSuccess ? `${g.lastSuccess} (${ago(g.lastSuccess, checkedAt)})` : "never"}. Not an outage: the API
          server answers, but asks Faultline to wait, so the values shown may be that old.
        </div>
      ))}
    </div>
  );
}
