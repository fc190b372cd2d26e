import type { SignalStatus } from "./signal-model";

// The parts of the stack an SRE names when something breaks, each with the signals that speak for it: the health
// page's cards and the fleet's "failing" column group signals the same way.

export const STACK_COMPONENTS: { name: string; prefixes: string[] }[] = [
  { name: "KMS plugins", prefixes: ["kms.plugin.unhealthy", "kms.report.", "kms.kek.", "kms.migration."] },
  { name: "KMS metrics", prefixes: ["kms.latency.", "kms.decrypt.", "kms.plugin.errors", "kms.keyid.", "kms.auth."] },
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

/** Worst first. */
export const STATUS_ORDER: SignalStatus[] = ["critical", "warning", "unknown", "ok"];

/** The component a signal belongs to (every signal id has exactly one: a test holds them to it). */
export function componentOf(signalId: string): string | undefined {
  return STACK_COMPONENTS.find((c) => c.prefixes.some((p) => signalId.startsWith(p)))?.name;
}
