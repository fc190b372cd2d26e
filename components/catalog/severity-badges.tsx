import type { CatalogEntry } from "@/lib/catalog/schema";
import { Badge } from "@/components/ui/badge";
import { DATA_LOSS_LABEL, STARTUP_LABEL } from "./severity";

export function StartupBadge({ entry, prefix }: { entry: CatalogEntry; prefix?: string }) {
  if (entry.kind !== "failure-mode") return <span className="muted">n/a</span>;
  const look = STARTUP_LABEL[entry.startupBlock.level];
  return (
    <Badge tone={look.tone} title={`${look.label}. Seed: ${entry.startupBlock.seed}`}>
      {prefix ? `${prefix}: ` : ""}
      {look.short}
    </Badge>
  );
}

export function DataLossBadge({ entry, prefix }: { entry: CatalogEntry; prefix?: string }) {
  if (entry.kind !== "failure-mode") return <span className="muted">n/a</span>;
  const look = DATA_LOSS_LABEL[entry.dataLoss.level];
  return (
    <Badge tone={look.tone} title={`${look.label}. Seed: ${entry.dataLoss.seed}`}>
      {prefix ? `${prefix}: ` : ""}
      {look.short}
    </Badge>
  );
}
