import { z } from "zod";
import { describeIssues, describeType, enumError, isRecord } from "@/lib/sources/describe-input";
import { readCaBundle } from "./read-ca-bundle";
import type { ReadProblem } from "./read-problem";

// CloudTaser-like workloads. "done" follows kubectl rollout status (rollout_status.go), so the dashboard
// and an operator's terminal agree on when a rollout has finished.

const Count = z.number().int().min(0);
const Metadata = z.object({
  name: z.string().optional(),
  namespace: z.string().optional(),
  generation: z.number().int().optional(),
  deletionTimestamp: z.string().optional(),
});

// Integer status fields are omitempty: absent means 0 (numberUnavailable vanishes once it reaches 0).
export const DeploymentStatus = z.object({
  observedGeneration: z.number().int().optional(),
  replicas: Count.default(0),
  updatedReplicas: Count.default(0),
  readyReplicas: Count.default(0),
  availableReplicas: Count.default(0),
  conditions: z.array(z.object({ type: z.string(), status: z.string().optional(), reason: z.string().optional() })).default([]),
});
export type DeploymentStatus = z.infer<typeof DeploymentStatus>;

export interface DeploymentView {
  name?: string;
  namespace?: string;
  /** spec.replicas; the API server defaults it to 1. */
  replicas: number;
  /** status.replicas, which includes old pods not yet terminated. */
  current: number;
  available: number;
  ready: number;
  updated: number;
  done: boolean;
  progressDeadlineExceeded: boolean;
  deleting: boolean;
  problems: ReadProblem[];
}

export function readDeployment(obj: unknown): DeploymentView {
  const problems: ReadProblem[] = [];
  const root = readRoot(obj, "Deployment", problems, "Deployment");
  const meta = readMetadata(root?.metadata, problems);
  const specReplicas = isRecord(root?.spec) ? root.spec.replicas : undefined;
  let replicas = 1;
  if (specReplicas !== undefined && Count.safeParse(specReplicas).success) replicas = specReplicas as number;
  else if (specReplicas !== undefined)
    problems.push({ kind: "wrong-type", subject: "spec.replicas", fields: { found: describeType(specReplicas), expected: "a count" } });
  const status = readStatus(root?.status, DeploymentStatus, problems);
  const progressDeadlineExceeded = status?.conditions.some((c) => c.type === "Progressing" && c.reason === "ProgressDeadlineExceeded") ?? false;
  const observed = observedCurrent(meta.generation, status?.observedGeneration);
  const done =
    status !== undefined &&
    observed &&
    !progressDeadlineExceeded &&
    status.updatedReplicas >= replicas &&
    status.replicas <= status.updatedReplicas &&
    status.availableReplicas >= status.updatedReplicas;
  return {
    ...identity(meta),
    replicas,
    current: status?.replicas ?? 0,
    available: status?.availableReplicas ?? 0,
    ready: status?.readyReplicas ?? 0,
    updated: status?.updatedReplicas ?? 0,
    done,
    progressDeadlineExceeded,
    deleting: meta.deletionTimestamp !== undefined,
    problems,
  };
}

export const DaemonSetStatus = z.object({
  observedGeneration: z.number().int().optional(),
  desiredNumberScheduled: Count.default(0),
  currentNumberScheduled: Count.default(0),
  updatedNumberScheduled: Count.default(0),
  numberReady: Count.default(0),
  numberAvailable: Count.default(0),
  numberUnavailable: Count.default(0),
  numberMisscheduled: Count.default(0),
});
export type DaemonSetStatus = z.infer<typeof DaemonSetStatus>;

export interface DaemonSetView {
  name?: string;
  namespace?: string;
  desired: number;
  current: number;
  ready: number;
  available: number;
  unavailable: number;
  updated: number;
  misscheduled: number;
  done: boolean;
  deleting: boolean;
  problems: ReadProblem[];
}

export function readDaemonSet(obj: unknown): DaemonSetView {
  const problems: ReadProblem[] = [];
  const root = readRoot(obj, "DaemonSet", problems, "DaemonSet");
  const meta = readMetadata(root?.metadata, problems);
  const status = readStatus(root?.status, DaemonSetStatus, problems);
  const desired = status?.desiredNumberScheduled ?? 0;
  const done =
    status !== undefined &&
    observedCurrent(meta.generation, status.observedGeneration) &&
    status.updatedNumberScheduled >= desired &&
    status.numberAvailable >= desired;
  return {
    ...identity(meta),
    desired,
    current: status?.currentNumberScheduled ?? 0,
    ready: status?.numberReady ?? 0,
    available: status?.numberAvailable ?? 0,
    unavailable: status?.numberUnavailable ?? 0,
    updated: status?.updatedNumberScheduled ?? 0,
    misscheduled: status?.numberMisscheduled ?? 0,
    done,
    deleting: meta.deletionTimestamp !== undefined,
    problems,
  };
}

const FAILURE_POLICIES = ["Fail", "Ignore"] as const;
const Webhook = z.object({
  name: z.string().min(1, "name is empty"),
  // admissionregistration/v1 defaults: failurePolicy Fail, timeoutSeconds 10, service port 443.
  failurePolicy: z.enum(FAILURE_POLICIES, { error: enumError(FAILURE_POLICIES) }).default("Fail"),
  timeoutSeconds: z.number().int().min(1).max(30).default(10),
  clientConfig: z.object({
    service: z.object({ namespace: z.string(), name: z.string(), port: z.number().int().optional(), path: z.string().optional() }).optional(),
    url: z.string().optional(),
    caBundle: z.string().optional(),
  }),
});

export interface WebhookView {
  name: string;
  failurePolicy: "Fail" | "Ignore";
  timeoutSeconds: number;
  service?: { namespace: string; name: string; port?: number; path?: string };
  url?: string;
  caBundlePresent: boolean;
  caNotAfter?: string;
}

export interface WebhookConfigurationView {
  name?: string;
  webhooks: WebhookView[];
  problems: ReadProblem[];
}

export function readWebhookConfiguration(obj: unknown): WebhookConfigurationView {
  const problems: ReadProblem[] = [];
  const root = readRoot(obj, "webhook configuration", problems);
  const meta = readMetadata(root?.metadata, problems);
  const view: WebhookConfigurationView = { ...(meta.name !== undefined ? { name: meta.name } : {}), webhooks: [], problems };
  if (!root || root.webhooks === undefined || root.webhooks === null) return view;
  if (!Array.isArray(root.webhooks)) {
    problems.push({ kind: "wrong-type", subject: "webhooks", fields: { found: describeType(root.webhooks), expected: "an array" } });
    return view;
  }
  root.webhooks.forEach((entry, i) => {
    const given = isRecord(entry) && typeof entry.name === "string" ? entry.name : null;
    const subject = `webhooks[${i}]`;
    const result = Webhook.safeParse(entry);
    if (!result.success) {
      problems.push({
        kind: "entry-skipped",
        subject,
        fields: { list: "webhooks", index: i, type: null, name: given, issues: describeIssues(result.error).join("; ") },
      });
      return;
    }
    const { name, failurePolicy, timeoutSeconds, clientConfig } = result.data;
    if (!clientConfig.service && !clientConfig.url) problems.push({ kind: "webhook-no-target", subject, fields: { name: given } });
    const ca = readCaBundle(clientConfig.caBundle);
    if (ca.problem) problems.push({ kind: "webhook-ca-unreadable", subject, fields: { name: given, reason: ca.problem } });
    view.webhooks.push({
      name,
      failurePolicy,
      timeoutSeconds,
      ...(clientConfig.service ? { service: clientConfig.service } : {}),
      ...(clientConfig.url ? { url: clientConfig.url } : {}),
      caBundlePresent: ca.present,
      ...(ca.notAfter ? { caNotAfter: ca.notAfter } : {}),
    });
  });
  return view;
}

export interface EndpointsView {
  name?: string;
  namespace?: string;
  /** Addresses that receive traffic, and those that exist but are not ready. */
  ready: number;
  notReady: number;
  problems: ReadProblem[];
}

const EndpointSubsets = z
  .array(z.object({ addresses: z.array(z.unknown()).nullish(), notReadyAddresses: z.array(z.unknown()).nullish() }).passthrough())
  .nullish();

/** A core/v1 Endpoints object: how many addresses behind its Service are ready. */
export function readEndpoints(obj: unknown): EndpointsView {
  const problems: ReadProblem[] = [];
  const root = readRoot(obj, "Endpoints", problems, "Endpoints");
  const meta = readMetadata(root?.metadata, problems);
  const subsets = EndpointSubsets.safeParse(root?.subsets);
  if (!subsets.success) problems.push(...invalidFields(subsets.error, "subsets"));
  const list = subsets.success ? (subsets.data ?? []) : [];
  return {
    ...identity(meta),
    ready: list.reduce((n, s) => n + (s.addresses?.length ?? 0), 0),
    notReady: list.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0),
    problems,
  };
}

function readRoot(obj: unknown, label: string, problems: ReadProblem[], kind?: string): Record<string, unknown> | undefined {
  if (!isRecord(obj)) {
    problems.push({ kind: "wrong-type", subject: label, fields: { found: describeType(obj), expected: "an object" } });
    return undefined;
  }
  if (kind && obj.kind !== undefined && obj.kind !== kind) {
    problems.push({
      kind: "wrong-kind",
      subject: "kind",
      fields: { kind: typeof obj.kind === "string" ? obj.kind : null, found: describeType(obj.kind), expected: kind },
    });
  }
  return obj;
}

function readMetadata(value: unknown, problems: ReadProblem[]): z.infer<typeof Metadata> {
  if (value === undefined) return {};
  const result = Metadata.safeParse(value);
  if (result.success) return result.data;
  problems.push(...invalidFields(result.error, "metadata"));
  return {};
}

function readStatus<T>(value: unknown, schema: z.ZodType<T>, problems: ReadProblem[]): T | undefined {
  // A missing status is an object no controller has reconciled yet: not done, but not malformed.
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  problems.push(...invalidFields(result.error, "status"));
  return undefined;
}

// kubectl waits until the controller has seen the latest spec; without a generation there is nothing to wait for.
function observedCurrent(generation: number | undefined, observedGeneration: number | undefined): boolean {
  if (generation === undefined) return true;
  return observedGeneration !== undefined && generation <= observedGeneration;
}

function identity(meta: z.infer<typeof Metadata>): { name?: string; namespace?: string } {
  return {
    ...(meta.name !== undefined ? { name: meta.name } : {}),
    ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
  };
}

function invalidFields(error: z.ZodError, at: string): ReadProblem[] {
  return describeIssues(error, at).map((issue) => ({ kind: "invalid-field", subject: at, fields: { issue } }));
}
