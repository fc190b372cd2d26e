import { deepEqual, type JsonObject } from "./fields";
import type { ApiFaults } from "./faults";
import { createModel, type ClusterModel, type ModelOptions } from "./model";
import { controlPlanePods, KAS_NAMESPACE } from "./control-plane";
import { clusterOperator, nodeObject, operatorCr, reporterApplies, stackObjects } from "./render-objects";
import { findResource, type ResourceType } from "./resources";
import { ObjectStore, StoreError } from "./store";

// One simulated cluster: its model, its object store, and the controllers that keep the objects in
// line with the model (the per-node KMS health reporters above all).

/** A scenario in force; kept on the cluster so every copy of the code that holds it agrees. */
export interface ActiveScenario {
  id: string;
  node?: string;
  variant?: string;
}

/** The API server that serves this cluster, for the scenarios that strike the server itself. */
export interface ApiServerControl {
  readonly faults: ApiFaults;
  restart(): Promise<void>;
}

export interface DemoClusterOptions extends ModelOptions {
  /** The simulator's clock; tests pin it. */
  now?: () => Date;
  /**
   * Stamp every sample of the metrics endpoints with that clock's time, so a Prometheus scraping them stores each at
   * the simulated instant: for the diagnosis evaluation, whose clock runs apart from the wall clock (eval-metrics.ts).
   */
  stampMetrics?: boolean;
}

const REPORTED_CRS = [
  ["KubeAPIServer", "kubeapiservers"],
  ["OpenShiftAPIServer", "openshiftapiservers"],
  ["Authentication", "authentications"],
] as const;

const type = (group: string, plural: string): ResourceType => findResource(group, "v1", plural)!;
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export class DemoCluster {
  readonly model: ClusterModel;
  readonly store: ObjectStore;
  readonly now: () => Date;
  readonly stampMetrics: boolean;
  tick = 0;
  private timer?: NodeJS.Timeout;
  private readonly firstSeen = new Map<string, string>();
  /** The last reporter write that the API server refused, for the demo page to show. */
  lastReporterError?: string;
  scenarios: ActiveScenario[] = [];
  /** Set by the DemoServer that serves this cluster. */
  apiServer?: ApiServerControl;
  /** When the control-plane pods started, and when their restarting containers last did (the last scenario change). */
  readonly started: Date;
  restarted: Date;

  constructor(options: DemoClusterOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.stampMetrics = options.stampMetrics ?? false;
    this.started = this.now();
    this.restarted = this.started;
    this.model = createModel(options);
    this.store = new ObjectStore(this.now);
    const since = this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    this.store.put(type("operator.openshift.io", "kubeapiservers"), operatorCr("KubeAPIServer", since, this.model.nodes.length));
    this.store.put(type("operator.openshift.io", "openshiftapiservers"), operatorCr("OpenShiftAPIServer", since, this.model.nodes.length));
    this.store.put(type("operator.openshift.io", "authentications"), operatorCr("Authentication", since, this.model.nodes.length));
    this.store.put(type("config.openshift.io", "clusteroperators"), clusterOperator(since));
    for (const name of ["cloudtaser-system", "payments", KAS_NAMESPACE])
      this.store.put(type("", "namespaces"), { apiVersion: "v1", kind: "Namespace", metadata: { name }, spec: {}, status: { phase: "Active" } });
    this.sync();
    this.report();
  }

  /** One stored object ("" is the core group), undefined when it does not exist. */
  object(group: string, plural: string, name: string, namespace?: string): JsonObject | undefined {
    return this.store.get(type(group, plural), namespace, name);
  }

  /** Every stored object of a type. */
  objects(group: string, plural: string, namespace?: string): JsonObject[] {
    return this.store.list(type(group, plural), namespace).items;
  }

  start(): void {
    this.stop();
    this.timer = setInterval(() => this.report(), this.model.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One probe round of every running reporter, written with server-side apply as each node's manager. */
  report(): void {
    this.tick++;
    const now = this.now();
    let refused: string | undefined;
    for (const [kind, plural] of REPORTED_CRS) {
      const applies = reporterApplies(this.model, now, this.tick, this.firstSeen, kind);
      if (applies.length === 0) continue;
      try {
        this.store.applyMany(
          type("operator.openshift.io", plural),
          undefined,
          "cluster",
          applies.map((a) => ({ body: a.body, opts: { manager: a.manager, force: true, subresource: "status" as const } })),
        );
      } catch (error) {
        // A refused write is dropped, not queued, as the real reporter does: the report goes stale.
        if (!(error instanceof StoreError)) throw error;
        refused ??= error.message;
      }
    }
    this.lastReporterError = refused;
  }

  /** Brings nodes and the protection stack's objects in line with the model. */
  sync(): void {
    const now = this.now();
    const since = iso(now);
    if (now > this.started) this.restarted = now;
    const nodes = type("", "nodes");
    const present = new Set(this.model.nodes.filter((n) => n.present).map((n) => n.name));
    for (const name of present) if (!this.store.get(nodes, undefined, name)) this.store.put(nodes, nodeObject(name, since));
    for (const existing of this.store.list(nodes).items) {
      const name = (existing.metadata as JsonObject).name as string;
      if (!present.has(name)) this.store.delete(nodes, undefined, name);
    }
    const wanted = [
      ...stackObjects(this.model),
      ...controlPlanePods(this.model, iso(this.started), iso(this.restarted)).map((object) => ({ plural: "pods", group: "", object })),
    ];
    for (const { group, plural, object } of wanted) {
      const t = type(group, plural);
      const meta = object.metadata as JsonObject;
      const current = this.store.get(t, meta.namespace as string | undefined, meta.name as string);
      const same =
        current &&
        deepEqual(current.spec, object.spec) &&
        deepEqual(current.status, object.status) &&
        deepEqual(current.webhooks, object.webhooks) &&
        deepEqual(current.subsets, object.subsets);
      if (!same) this.store.put(t, object);
    }
    // A replaced node's kube-apiserver pod goes with it.
    const pods = type("", "pods");
    const kept = new Set(wanted.map((w) => `${(w.object.metadata as JsonObject).namespace}/${(w.object.metadata as JsonObject).name}`));
    for (const pod of this.store.list(pods, KAS_NAMESPACE).items) {
      const name = (pod.metadata as JsonObject).name as string;
      if (!kept.has(`${KAS_NAMESPACE}/${name}`)) this.store.delete(pods, KAS_NAMESPACE, name);
    }
    const webhooks = type("admissionregistration.k8s.io", "mutatingwebhookconfigurations");
    if (!this.model.stack.webhookPresent) this.store.delete(webhooks, undefined, "cloudtaser-operator-webhook");
  }
}
