// The catalog's signal ids this code can emit, and the shape every check returns. A test holds the list
// against catalog/signals.yaml, so an id renamed there fails here instead of silently matching nothing.

export const SIGNAL_IDS = [
  "cluster.api.unreachable",
  "kms.plugin.unhealthy",
  "kms.report.stale",
  "kms.report.orphaned",
  "kms.report.clock-skew",
  "kms.kek.disagreement",
  "kms.migration.in-progress",
  "kms.keyid.flapping",
  "kms.decrypt.errors",
  "kms.plugin.errors",
  "kms.latency.high",
  "kms.auth.ttl-low",
  "apiserver.kms-providers.failing",
  "openbao.sealed",
  "openbao.unreachable",
  "openbao.uninitialized",
  "openbao.standby",
  "transit.key.deletion-allowed",
  "transit.key.min-decryption-raised",
  "transit.key.missing",
  "webhook.missing",
  "webhook.ca.expiring",
  "webhook.no-endpoints",
  "encryption.identity-fallback",
  "beacon.unreachable",
  "operator.unavailable",
  "ebpf.daemonset.unavailable",
  "bridge.unavailable",
  "wrapper.restarting",
] as const;
export type SignalId = (typeof SIGNAL_IDS)[number];

export type SignalStatus = "ok" | "warning" | "critical" | "unknown";

/**
 * What is wrong, as a value (set on every signal that is not ok): a kind naming the failure precisely
 * ("plugin-unhealthy", "report-stale", "openbao-sealed"), what it is about, and the facts behind it.
 * Diagnosis classifies on these; `detail` is the sentence people read.
 */
export interface SignalProblem {
  kind: string;
  subject: string;
  fields: Record<string, string | number | boolean | null>;
}

export interface Signal {
  id: SignalId;
  /** What the check is about: "master-1/2" (node/keyID), "master-2", "keyID 2", "openbao", "cluster". */
  subject: string;
  state: SignalStatus;
  detail: string;
  /** The parsed piece the verdict rests on; parsers already leave tokens and key material out. */
  evidence: unknown;
  problem?: SignalProblem;
}

/** A problem's kind and facts; its subject is the signal's unless given. */
export type ProblemOf = { kind: string; subject?: string; fields?: SignalProblem["fields"] };

export function createSignal(id: SignalId, subject: string, state: SignalStatus, detail: string, evidence: unknown, problem?: ProblemOf): Signal {
  if (!problem) return { id, subject, state, detail, evidence };
  return { id, subject, state, detail, evidence, problem: { kind: problem.kind, subject: problem.subject ?? subject, fields: problem.fields ?? {} } };
}
