import { z } from "zod";
import { SLUG } from "@/lib/content/ids";
import type { DemoCluster } from "@/lib/demo/cluster/cluster";
import { createModel, type ClusterModel } from "@/lib/demo/cluster/model";

// A broken cluster of the diagnosis corpus, described as the state of the demo cluster's model: the demo server
// then renders it into the real shapes (reporter conditions, kms-providers bodies, OpenBao answers, workloads),
// and Faultline reads it through its real client and parsers, as it would read a real cluster.

const Health = z.enum(["healthy", "unhealthy", "error"]);

const PluginEdit = z.strictObject({
  /** A node name ("master-0") or "*" for every node. */
  node: z.string().min(1),
  /** Which plugin of the node; the first (newest keyID) when left out. */
  keyID: z.string().min(1).optional(),
  health: Health,
  /** What the plugin's health check says: the real error text. */
  detail: z.string().max(4000).optional(),
  kekID: z.string().min(1).optional(),
  /** Alternates healthy and error on every probe (a crash loop). */
  flapping: z.boolean().optional(),
});

const NodeEdit = z.strictObject({
  node: z.string().min(1),
  reporterRunning: z.boolean().optional(),
  clockSkewMs: z.number().optional(),
  socketRestarts: z.number().int().min(0).optional(),
  present: z.boolean().optional(),
});

const LastExit = z.strictObject({ exitCode: z.number().int(), reason: z.string().min(1), message: z.string().max(4000) });

export const World = z.strictObject({
  nodes: z.number().int().min(1).max(5).optional(),
  pluginsPerNode: z.number().int().min(1).max(3).optional(),
  plugins: z.array(PluginEdit).optional(),
  nodeState: z.array(NodeEdit).optional(),
  openbao: z.enum(["active", "standby", "sealed", "uninitialized", "unreachable"]).optional(),
  transit: z
    .strictObject({
      exists: z.boolean(),
      deletionAllowed: z.boolean(),
      softDeleted: z.boolean(),
      minDecryptionVersion: z.number().int().min(1),
      latestVersion: z.number().int().min(1),
      oldestVersionInUse: z.number().int().min(1),
    })
    .partial()
    .optional(),
  auth: z
    .strictObject({ tokenTtlSeconds: z.number(), certificateTtlSeconds: z.number(), loginFailures: z.number().int().min(0) })
    .partial()
    .optional(),
  decrypt: z
    .strictObject({
      unknownKeyIdErrors: z.number().min(0),
      aadErrors: z.number().min(0),
      latencyFactor: z.number().min(0),
      deadlineExceeded: z.number().min(0),
      /**
       * The plugin's bounded reason for the AAD refusals counted by aadErrors (openbao_kms_aad_validation_errors_total
       * {reason}): dc-tec/openbao-kubernetes-kms internal/kmsv2/observability.go@d9fbbfee counts aad.ErrAADRequired as
       * aad_missing, aad.ErrAnnotationMismatch as aad_mismatch (the demo's default), aad.ErrInvalidAnnotations as
       * annotation_invalid.
       */
      aadReason: z.enum(["aad_mismatch", "aad_missing", "annotation_invalid"]),
    })
    .partial()
    .optional(),
  keyIdFlips: z.number().int().min(0).optional(),
  identityFallback: z.boolean().optional(),
  stack: z
    .strictObject({
      webhookPresent: z.boolean(),
      webhookCaExpired: z.boolean(),
      failurePolicy: z.enum(["Ignore", "Fail"]),
      operatorReplicas: z.number().int().min(0),
      ebpfReady: z.enum(["all", "none"]),
      bridgeAvailable: z.boolean(),
      beaconUp: z.boolean(),
      wrapper: z.strictObject({ state: z.enum(["running", "crash-loop"]), restarts: z.number().int().min(0), lastExit: LastExit.optional() }),
    })
    .partial()
    .optional(),
});
export type World = z.infer<typeof World>;

const Line = z.string().min(1).max(4000);

/** Evidence the world sends besides what Faultline reads itself: alerts users already run, container logs, journals. */
export const CaseEvidence = z.strictObject({
  /** Alerts as Alertmanager delivers them, without Faultline's labels: the rule's labels and its filled-in annotations. */
  alerts: z
    .array(
      z.strictObject({
        labels: z.record(z.string(), z.string()).refine((l) => !!l.alertname, "needs an alertname label"),
        annotations: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
  /** The tail of a container's log on a node, as `kubectl logs` prints it (previous: the container before its last restart). */
  logs: z
    .array(
      z.strictObject({
        node: z.string().min(1),
        container: z.enum(["kms-plugin", "kube-apiserver"]),
        previous: z.boolean().optional(),
        lines: z.array(Line).min(1).max(400),
      }),
    )
    .optional(),
  /** A systemd unit's journal on a node (a plugin run as a systemd service), as `journalctl -u` prints it. */
  journal: z.array(z.strictObject({ node: z.string().min(1), unit: z.string().min(1), lines: z.array(Line).min(1).max(400) })).optional(),
});
export type CaseEvidence = z.infer<typeof CaseEvidence>;

export const Case = z.strictObject({
  id: z.string().regex(SLUG),
  /** The catalog failure mode that is the cause. */
  label: z.string().regex(SLUG),
  /** Where the error text and the situation come from (repository and path, seed table). */
  from: z.string().min(3),
  note: z.string().optional(),
  world: World,
  /** What else the world sends: alerts, logs, journals (read by Faultline since issue 26). */
  evidence: CaseEvidence.optional(),
});
export type Case = z.infer<typeof Case>;
export const CorpusFile = z.strictObject({ cases: z.array(Case).min(1) });

/** Puts the cluster into the world's state (from a healthy baseline) and lets its reporters write once. */
export function applyWorld(cluster: DemoCluster, world: World): void {
  const m = cluster.model;
  const fresh: ClusterModel = createModel({
    name: m.name,
    nodes: world.nodes ?? 3,
    pluginsPerNode: world.pluginsPerNode ?? 1,
    design: m.design,
    intervalMs: m.intervalMs,
  });
  Object.assign(m, fresh);
  cluster.scenarios = [];
  for (const edit of world.plugins ?? []) {
    const nodes = edit.node === "*" ? m.nodes : m.nodes.filter((n) => n.name === edit.node);
    if (nodes.length === 0) throw new Error(`world: no node "${edit.node}"`);
    for (const node of nodes) {
      const plugin = edit.keyID ? node.plugins.find((p) => p.keyID === edit.keyID) : node.plugins[0];
      if (!plugin) throw new Error(`world: ${node.name} has no plugin with keyID ${edit.keyID}`);
      Object.assign(plugin, { health: edit.health, detail: edit.detail, flapping: edit.flapping ?? false }, edit.kekID ? { kekID: edit.kekID } : {});
    }
  }
  for (const edit of world.nodeState ?? []) {
    const node = m.nodes.find((n) => n.name === edit.node);
    if (!node) throw new Error(`world: no node "${edit.node}"`);
    const { reporterRunning, clockSkewMs, socketRestarts, present } = edit;
    const given = Object.entries({ reporterRunning, clockSkewMs, socketRestarts, present }).filter(([, v]) => v !== undefined);
    Object.assign(node, Object.fromEntries(given));
  }
  if (world.openbao) m.openbao.state = world.openbao;
  Object.assign(m.transit, world.transit ?? {});
  Object.assign(m.auth, world.auth ?? {});
  Object.assign(m.decrypt, world.decrypt ?? {});
  if (world.keyIdFlips !== undefined) m.keyIdFlips = world.keyIdFlips;
  if (world.identityFallback !== undefined) m.identityFallback = world.identityFallback;
  Object.assign(m.stack, world.stack ?? {});
  cluster.sync();
  cluster.report();
}
