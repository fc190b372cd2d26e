import { processSlot } from "@/lib/process-slot";

// Each watched cluster's labels from the clusters file, as start-up read it (lib/startup.ts): the monitors and the
// fleet view agree on them without reading the file twice. The demo cluster has none.

const labels = processSlot<Map<string, Record<string, string>>>("fleet-labels");

export function setClusterLabels(clusters: readonly { name: string; labels?: Record<string, string> }[]): void {
  labels.set(new Map(clusters.map((c) => [c.name, c.labels ?? {}])));
}

export function labelsOf(name: string): Record<string, string> {
  return labels.get()?.get(name) ?? {};
}
