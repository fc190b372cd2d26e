import type { ClusterHealth } from "@/lib/signals/cluster-health";
import type { HealthInView } from "@/lib/signals/health-view";
import { STACK_COMPONENTS, STATUS_ORDER as ORDER } from "@/lib/signals/stack-components";
import { Badge, type Tone } from "@/components/ui/badge";

// One card per part of the stack, showing its worst signal: what else is broken, at a glance.

const TONE: Record<string, Tone> = { critical: "red", warning: "orange", unknown: "orange", ok: "green" };

/** `tally` counts every signal, those not in `signals` (the summary view leaves most passing per-node checks out) too. */
export function ComponentCards({ signals, tally }: { signals: ClusterHealth["signals"]; tally?: HealthInView["signalTally"] }) {
  const counts = tally ?? signals.map((s) => ({ id: s.id, state: s.state, count: 1 }));
  return (
    <div className="component-cards" data-testid="component-cards">
      {STACK_COMPONENTS.map((component) => {
        const ours = (id: string) => component.prefixes.some((p) => id.startsWith(p));
        const mineCounted = counts.filter((t) => ours(t.id));
        if (mineCounted.length === 0) return null;
        const worstState = [...mineCounted].sort((a, b) => ORDER.indexOf(a.state) - ORDER.indexOf(b.state))[0].state;
        const worst = signals.find((s) => ours(s.id) && s.state === worstState) ?? { state: worstState, detail: "" };
        const total = mineCounted.reduce((n, t) => n + t.count, 0);
        const bad = mineCounted.filter((t) => t.state === worstState).reduce((n, t) => n + t.count, 0);
        return (
          <div key={component.name} className={`component-card card-${worst.state}`} data-component={component.name}>
            <div className="card-head">
              <strong>{component.name}</strong> <Badge tone={TONE[worst.state] ?? "grey"}>{worst.state}</Badge>
            </div>
            <div className="card-detail">
              {worst.state === "ok"
                ? `${total.toLocaleString("en")} check${total === 1 ? "" : "s"} passing`
                : `${worst.detail}${bad > 1 ? ` (+${(bad - 1).toLocaleString("en")} more)` : ""}`}
            </div>
          </div>
        );
      })}
    </div>
  );
}
