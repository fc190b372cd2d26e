import "server-only";
import type { ClusterConfig } from "@/lib/clusters/config";
import { getRaw, type KubeAccess } from "@/lib/sources/kube/client";
import { collectKmsMetrics, type KmsMetrics } from "@/lib/sources/prometheus/kms-metrics";
import type { SourceValues, Sources } from "@/lib/sources/sources";
import { openBaoFetch } from "./openbao-http";
import { healthEndpoint } from "./health-endpoint";
import { probeBeacon } from "@/lib/sources/beacon/probe-beacon";
import { backingOff, recordFailure, recordSuccess, type SourceState } from "@/lib/sources/state";

// One round of HTTP probes for one cluster (the API server's KMS and readiness endpoints, OpenBao and its
// Transit key, and each probed source's own probe); the Kubernetes objects come by watch (lib/sources/kube/watched.ts).
// Every probe is read on its own, so one failing source never hides the others; a failure keeps that source's last-known value.

export interface CollectTarget {
  cluster: ClusterConfig;
  /** Token for the Transit read, when one is configured (never logged). */
  openBaoToken?: string;
  /** Why there is no Prometheus to read, when that is known (shown where the metric panels would be). */
  prometheusNote?: string;
}

async function openBaoHealth(address: string, caFile: string | undefined): Promise<SourceValues["openbao"]> {
  // A CA file that cannot be read fails the read, with its own message.
  const answer = await healthEndpoint(new URL("/v1/sys/health", address), openBaoFetch(caFile));
  if ("unreachable" in answer) return answer;
  try {
    return { status: answer.status, body: JSON.parse(answer.text) as unknown };
  } catch {
    return { status: answer.status, body: answer.text }; // keep the text; the parser reports it
  }
}

export type ProbeName = "kmsProviders" | "readyz" | "openbao" | "transit" | "beacon" | "metrics";

/** Prometheus scrapes every 5-30 s; asking more often than this only repeats the same answer. */
export const METRICS_REFRESH_MS = 5_000;

/** The KMS metrics, or the previous answer while it is fresh; a Prometheus that answers nothing is down. */
async function kmsMetrics(url: string, previous: Sources["metrics"], now: Date): Promise<KmsMetrics> {
  const last = previous?.up && previous.value ? Date.parse(previous.value.at) : NaN;
  if (previous?.value && now.getTime() - last < METRICS_REFRESH_MS) return previous.value;
  const metrics = await collectKmsMetrics(url, now);
  const answered = Object.values(metrics.metrics).some((m) => m.answered);
  if (!answered && metrics.errors.length > 0) throw new Error(`Prometheus ${url}: ${metrics.errors[0].message}`);
  return metrics;
}

export async function collect(target: CollectTarget, previous: Sources, now: () => Date, kube: KubeAccess): Promise<Pick<Sources, ProbeName>> {
  const reads: { [K in ProbeName]-?: () => Promise<SourceValues[K]> } = {
    kmsProviders: () => getRaw(kube, "/healthz/kms-providers"),
    readyz: () => getRaw(kube, "/readyz?verbose"),
    openbao: async () => (target.cluster.openbao ? openBaoHealth(target.cluster.openbao.address, target.cluster.openbao.caFile) : undefined),
    transit: async () => {
      const bao = target.cluster.openbao;
      if (!bao || !target.openBaoToken) return undefined;
      const response = await openBaoFetch(bao.caFile)(new URL(`/v1/transit/keys/${encodeURIComponent(bao.transitKey)}`, bao.address), {
        headers: { "X-Vault-Token": target.openBaoToken },
        signal: AbortSignal.timeout(3000),
      });
      return { status: response.status, body: await response.json().catch(() => undefined) };
    },
    beacon: () => probeBeacon(target.cluster),
    metrics: async () => (target.cluster.prometheus ? kmsMetrics(target.cluster.prometheus.url, previous.metrics, now()) : undefined),
  };
  const start = now();
  // Each source keeps its own backoff: one that keeps failing is asked less often, the others as usual.
  const names = (Object.keys(reads) as ProbeName[]).filter((name) => !backingOff(previous[name] as SourceState | undefined, start));
  const results = await Promise.allSettled(names.map((name) => reads[name]()));
  const at = now();
  const next: Pick<Sources, ProbeName> = {};
  for (const name of Object.keys(reads) as ProbeName[]) if (previous[name]) (next as Record<string, SourceState>)[name] = previous[name] as SourceState;
  names.forEach((name, i) => {
    const result = results[i];
    const before = previous[name] as SourceState | undefined;
    (next as Record<string, SourceState>)[name] =
      result.status === "fulfilled" ? recordSuccess(name, sameAnswer(before?.value, result.value), at) : recordFailure(before, name, result.reason, at);
  });
  return next;
}

/**
 * The previous answer when the new one says the same: the monitor's intake, readings and store memos key on a value's
 * identity, so an endpoint that answers as before every poll (most do, most of the time) is not cleaned, parsed and
 * hashed again each round. Answers are small (a health endpoint's text, OpenBao's JSON); `previous` is the cleaned
 * one, so a raw answer that needed cleaning never equals it and is cleaned again.
 */
function sameAnswer<T>(previous: unknown, value: T): T {
  if (previous === undefined || value === undefined || typeof value !== "object" || value === null) return value;
  return JSON.stringify(previous) === JSON.stringify(value) ? (previous as T) : value;
}
