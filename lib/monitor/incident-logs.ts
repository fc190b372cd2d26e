import "server-only";
import { Conflict } from "@/lib/errors";
import type { PrismaClient } from "@/lib/db/generated/client";
import { logTargets, recordLogReadings, type LogsRecorded } from "@/lib/incidents/evidence/log-evidence";
import { isRecord } from "@/lib/sources/describe-input";
import { connect } from "@/lib/sources/kube/client";
import { logSettings, nodesNamed, type LogReading } from "@/lib/sources/logs/log-reading";
import { readJournal } from "@/lib/sources/logs/read-journal";
import { readPodLogs } from "@/lib/sources/logs/read-pod-logs";
import type { CollectTarget } from "@/lib/sources/probes/collect";
import type { KubeAccess } from "@/lib/sources/kube/client";
import type { Sources } from "@/lib/sources/sources";

/** What reading a cluster's logs needs of its monitor: its settings, its connection and its watched nodes. */
export interface Monitored {
  target: Pick<CollectTarget, "cluster">;
  access?: KubeAccess;
  sources: Sources;
}

// The logs an incident asks for, read with the watching monitor's settings and credentials (the clusters file's
// logs block) and kept as its evidence: when it opens (off the monitor's round, one read at a time per cluster) and
// when a responder asks. A source that cannot be read is recorded as such; nothing here stops incident handling.

export interface LogsRead extends LogsRecorded {
  /** Milliseconds spent reading and recording. */
  tookMs: number;
  /** Of those, from the readings in hand to the new ranking committed. */
  rankMs: number;
}

/** Reads the incident's log sources now and records them; 409 when this server does not watch its cluster. */
export async function readIncidentLogs(
  db: PrismaClient,
  incidentId: number,
  actor: string,
  find: (cluster: string) => Monitored | undefined,
): Promise<LogsRead> {
  const started = performance.now();
  const { cluster, subjects } = await logTargets(db, incidentId);
  const entry = find(cluster);
  if (!entry) throw new Conflict(`this server does not watch cluster "${cluster.slice(0, 100)}", so it cannot read its logs`);
  const readings = await readLogs(entry, subjects);
  const read = performance.now();
  const recorded = await recordLogReadings(db, incidentId, readings, actor, new Date());
  const done = performance.now();
  return { ...recorded, tookMs: Math.round(done - started), rankMs: Math.round(done - read) };
}

async function readLogs(entry: Monitored, subjects: string[]): Promise<LogReading[]> {
  const settings = logSettings(entry.target.cluster.logs);
  let pods: LogReading[];
  try {
    pods = await readPodLogs((entry.access ??= connect(entry.target.cluster)), subjects, settings);
  } catch (error) {
    pods = [
      {
        kind: "pod-log",
        key: `pods:${settings.namespace}`,
        source: `pods in ${settings.namespace}`,
        node: "",
        lines: [],
        bytes: 0,
        cut: false,
        refused: (error as Error).message.slice(0, 400),
      },
    ];
  }
  const journal = settings.journal;
  if (!journal) return pods;
  const known = new Set([...watchedNodes(entry), ...Object.keys(journal.nodes ?? {})]);
  const named = nodesNamed(subjects, known);
  const nodes = (named.length > 0 ? named : [...known].sort()).slice(0, settings.maxNodes);
  return [...pods, ...(await Promise.all(nodes.map((node) => readJournal(journal, node, settings))))];
}

/** The cluster's node names as the nodes watch last listed them. */
function watchedNodes(entry: Monitored): string[] {
  const items = entry.sources.nodes?.value;
  if (!Array.isArray(items)) return [];
  return items.flatMap((n) => (isRecord(n) && isRecord(n.metadata) && typeof n.metadata.name === "string" ? [n.metadata.name] : []));
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Reads the logs of incidents that just opened, after whatever this cluster is reading already, never awaited by the
 * round. A failure that leaves nothing recorded (the database gone) is logged.
 */
export function readLogsWhenOpened(db: PrismaClient, entry: Monitored, ids: number[], actor: string): void {
  const name = entry.target.cluster.name;
  let queue = queues.get(name) ?? Promise.resolve();
  for (const id of ids) {
    queue = queue
      .then(() => readIncidentLogs(db, id, actor, () => entry))
      .catch((error: unknown) =>
        console.error(`[faultline] monitor ${name}: could not read the logs for incident ${id}: ${(error as Error).message.split("\n").pop()}`),
      );
  }
  queues.set(name, queue);
  void queue.then(() => {
    if (queues.get(name) === queue) queues.delete(name);
  });
}
