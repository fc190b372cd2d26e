import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { Badge, type Tone } from "@/components/ui/badge";

// One card per part of the stack, showing its worst signal: what else is broken, at a glance.

export const COMPONENTS: { name: string; prefixes: string[] }[] = [
  { name: "KMS plugins", prefixes: ["kms.plugin.", "kms.report.", "kms.kek.", "kms.migration."] },
  { name: "KMS metrics", prefixes: ["kms.latency.", "kms.decrypt.", "kms.keyid.", "kms.auth."] },
  { name: "API server KMS check", prefixes: ["cluster.api.", "apiserver.", "encryption."] },
  { name: "OpenBao", prefixes: ["openbao."] },
  { name: "Transit key", prefixes: ["transit."] },
  { name: "Webhook", prefixes: ["webhook."] },
  { name: "Operator", prefixes: ["operator."] },
  { name: "eBPF agents", prefixes: ["ebpf."] },
  { name: "Bridge", prefixes: ["bridge."] },
  { name: "Beacon", prefixes: ["beacon."] },
  { name: "Wrapped workloads", prefixes: ["wrapper."] },
];
const ORDER = ["critical", "warning", "unknown", "ok"];
const TONE: Record<string, Tone> = { critical: "red", warning: "orange", unknown: "orange", ok: "green" };

export function ComponentCards({ signals }: { signals: ClusterHealth["signals"] }) {
  return (
    <div className="component-cards" data-testid="component-cards">
      {COMPONENTS.map((component) => {
        const mine = signals.filter((s) => component.prefixes.some((p) => s.id.startsWith(p)));
        if (mine.length === 0) return null;
        const worst = [...mine].sort((a, b) => ORDER.indexOf(a.state) - ORDER.indexOf(b.state))[0];
        const bad = mine.filter((s) => s.state === worst.state).length;
        return (
          <div key={component.name} className={`component-card card-${worst.state}`} data-component={component.name}>
            <div className="card-head">
              <strong>{component.name}</strong> <Badge tone={TONE[worst.state] ?? "grey"}>{worst.state}</Badge>
            </div>
            <div className="card-detail">
              {worst.state === "ok" ? `${mine.length} check${mine.length === 1 ? "" : "s"} passing` : `${worst.detail}${bad > 1 ? ` (+${bad - 1} more)` : ""}`}
            </div>
          </div>
        );
      })}
    </div>
  );
}
