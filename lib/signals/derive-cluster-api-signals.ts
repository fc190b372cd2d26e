import { clipLine } from "@/lib/model/clip-text";
import { createSignal, type Signal } from "./signal-model";

// Whether the cluster's API server can be read at all. Everything else Faultline says about a cluster it reads
// through that server, so while it does not answer, their stale or unknown states are consequences of this one.

/** One Kubernetes read (a watch or an API-server probe) as the monitor last recorded it. */
export interface KubeReadState {
  name: string;
  up: boolean;
  downSince?: string;
  lastError?: string;
}

const DETAIL_LIMIT = 300;
/** "GET /apis/...: 403 forbidden": the server answered with a status, so it is reachable (client.ts httpError). */
const HTTP_ANSWER = /^[A-Z]+ \S+: [1-5]\d\d\b/;

/** Critical when every Kubernetes read is down without an answer (refused, timed out, reset); ok when any answers. */
export function deriveClusterApiSignals(reads: KubeReadState[]): Signal[] {
  if (reads.length === 0) return [];
  const answering = reads.filter((r) => r.up);
  if (answering.length > 0) {
    return [createSignal("cluster.api.unreachable", "cluster", "ok", `${answering.length} of ${reads.length} Kubernetes reads answer`, summarize(reads))];
  }
  const answered = reads.find((r) => r.lastError && HTTP_ANSWER.test(r.lastError));
  if (answered) {
    return [
      createSignal("cluster.api.unreachable", "cluster", "ok", `answers, refusing the reads: ${clipLine(answered.lastError!, DETAIL_LIMIT)}`, summarize(reads)),
    ];
  }
  const since = reads
    .map((r) => r.downSince)
    .filter((s): s is string => Boolean(s))
    .sort()[0];
  const error = clipLine(reads.find((r) => r.lastError)?.lastError ?? "no answer", DETAIL_LIMIT);
  return [
    createSignal("cluster.api.unreachable", "cluster", "critical", `no Kubernetes read answered${since ? ` since ${since}` : ""}: ${error}`, summarize(reads), {
      kind: "cluster-api-unreachable",
      fields: { error, since: since ?? null, reads: reads.length },
    }),
  ];
}

const summarize = (reads: KubeReadState[]) => ({ reads: reads.map(({ name, up, downSince, lastError }) => ({ name, up, downSince, lastError })) });
