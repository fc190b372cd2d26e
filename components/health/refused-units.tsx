import type { ClusterHealth } from "@/lib/signals/cluster-health";

// What failed alone this round (a signal the database refused, one the incident rules could not judge) and
// which sources held characters the text boundary replaced: each a problem of that unit, the rest carry on.

const STAGE = { store: "could not store", judge: "could not judge" } as const;

export function RefusedUnits({ health }: { health: Pick<ClusterHealth, "refused" | "sources"> }) {
  const refused = health.refused ?? [];
  const cleaned = health.sources.filter((s) => s.cleaned);
  if (refused.length === 0 && cleaned.length === 0) return null;
  return (
    <div className="callout" data-testid="refused-units">
      {refused.map((r) => (
        <div key={`${r.stage}:${r.unit}`} data-testid="refused-unit">
          <strong>
            {STAGE[r.stage]}: {r.unit}
          </strong>{" "}
          — {r.reason}
        </div>
      ))}
      {cleaned.map((s) => (
        <div key={s.name} data-testid="cleaned-source">
          <strong>{s.name}</strong> sent text that cannot be stored or shown: {s.cleaned}, shown as �.
        </div>
      ))}
    </div>
  );
}
