import "server-only";
import { parseKmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import { parseOpenBaoHealth, parseTransitKey } from "@/lib/sources/probes/parse-openbao";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { readDaemonSet, readDeployment, readWebhookConfiguration } from "@/lib/sources/kube/read-workloads";
import type { DemoCluster } from "@/lib/demo/cluster/cluster";
import type { JsonObject } from "@/lib/demo/cluster/fields";
import { renderBeaconHealth, renderKmsProviders, renderOpenBaoHealth, renderTransitKey } from "@/lib/demo/cluster/render-endpoints";

// What the simulated cluster says right now, read through the same parsers Faultline uses on a
// real cluster. The game-day page shows it so an injected failure can be seen at once.

export interface DemoSnapshot {
  nodes: {
    name: string;
    present: boolean;
    ageSeconds?: number;
    reports: { keyID: string; kekID?: string; status: string; detail?: string }[];
    unparseable?: string;
    apiserver: { ok: boolean; failing: string[] };
  }[];
  openbao: string;
  transit: { deletionAllowed?: boolean; softDeleted?: boolean; minDecryptionVersion?: number; latestVersion?: number; missing: boolean };
  stack: { operator: string; ebpf: string; bridge: string; webhook: string; beacon: string };
}

export function readDemoSnapshot(cluster: DemoCluster): DemoSnapshot {
  const get = (group: string, plural: string, ns: string | undefined, name: string) => cluster.object(group, plural, name, ns);
  const now = cluster.now();
  const status = readOperatorStatus(get("operator.openshift.io", "kubeapiservers", undefined, "cluster"));
  const nodeNames = new Set(cluster.objects("", "nodes").map((n) => (n.metadata as JsonObject).name as string));
  const nodes = status.reporterConditions.map((c) => {
    const model = cluster.model.nodes.find((n) => n.name === c.nodeName);
    const kms = model ? renderKmsProviders(cluster.model, model, cluster.tick) : undefined;
    const providers = kms ? parseKmsProvidersHealth(kms.status, kms.body) : undefined;
    const checked = c.parsed.reports[0]?.lastChecked;
    return {
      name: c.nodeName,
      present: nodeNames.has(c.nodeName),
      ageSeconds: checked ? Math.round((now.getTime() - Date.parse(checked)) / 1000) : undefined,
      reports: c.parsed.reports.map(({ keyID, kekID, status: s, detail }) => ({ keyID, kekID, status: s, detail })),
      unparseable: c.parsed.format === "unparseable" ? c.parsed.raw : undefined,
      apiserver: { ok: providers?.ok ?? true, failing: providers?.providers.filter((p) => !p.healthy).map((p) => p.name) ?? [] },
    };
  });
  const bao = renderOpenBaoHealth(cluster.model, now);
  const key = parseTransitKey(renderTransitKey(cluster.model, now).body);
  const deploy = (name: string) => {
    const object = get("apps", "deployments", "cloudtaser-system", name);
    if (!object) return "missing";
    const d = readDeployment(object);
    return `${d.available ?? 0}/${d.replicas ?? 0} available`;
  };
  const ds = get("apps", "daemonsets", "cloudtaser-system", "cloudtaser-ebpf");
  const hookObject = get("admissionregistration.k8s.io", "mutatingwebhookconfigurations", undefined, "cloudtaser-operator-webhook");
  const hook = hookObject ? readWebhookConfiguration(hookObject).webhooks[0] : undefined;
  const daemon = ds ? readDaemonSet(ds) : undefined;
  return {
    nodes,
    openbao: bao === "unreachable" ? "unreachable" : parseOpenBaoHealth(bao.status, bao.body).state,
    transit:
      key.kind === "problem"
        ? { missing: true }
        : {
            missing: false,
            deletionAllowed: key.deletionAllowed,
            softDeleted: key.softDeleted,
            minDecryptionVersion: key.minDecryptionVersion,
            latestVersion: key.latestVersion,
          },
    stack: {
      operator: deploy("cloudtaser-operator"),
      bridge: deploy("cloudtaser-bridge"),
      ebpf: daemon ? `${daemon.ready ?? 0}/${daemon.desired ?? 0} ready` : "missing",
      webhook: hook
        ? `present, failurePolicy ${hook.failurePolicy}, CA ${hook.caNotAfter && Date.parse(hook.caNotAfter) < now.getTime() ? `expired ${hook.caNotAfter.slice(0, 10)}` : "valid"}`
        : "missing",
      beacon: renderBeaconHealth(cluster.model).status === 200 ? "up" : "down",
    },
  };
}
