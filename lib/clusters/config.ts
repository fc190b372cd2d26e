import { readFileSync } from "node:fs";
import { z } from "zod";
import { formatIssue, parseYamlSource, validateYaml, type ContentIssue } from "@/lib/content/yaml-source";

// Which clusters Faultline watches: one YAML file (FAULTLINE_CLUSTERS_FILE), validated with errors
// that name file, line and field. No file means the built-in demo cluster.

const Url = z.string().refine((v) => {
  try {
    return ["http:", "https:"].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, "must be an http:// or https:// URL");

/** A gatewayd address: "{node}" may stand for the node's name; no credentials in it (they would show in errors). */
const GatewayUrl = z.string().refine((v) => {
  try {
    const url = new URL(v.replaceAll("{node}", "node"));
    return ["http:", "https:"].includes(url.protocol) && !url.username && !url.password;
  } catch {
    return false;
  }
}, "must be an http:// or https:// URL without credentials ({node} stands for the node's name)");

/** A systemd unit name as systemctl takes it; nothing a URL or a journal match could misread. */
const UnitName = z.string().regex(/^[A-Za-z0-9:_.@\\-]{1,200}\.service$/, "must be a systemd service name like bao-kms-provider.service");
const NODE_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Where the KMS plugin's and kube-apiserver's logs are read when an incident asks (docs/clusters.md, "Logs"). */
export const LogsConfig = z.strictObject({
  /** The kube-apiserver pods, with the plugin as a sidecar. */
  namespace: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, "must be a namespace name")
    .default("openshift-kube-apiserver"),
  labelSelector: z.string().min(1).max(500).default("app=openshift-kube-apiserver"),
  /** Containers read, by name; a trailing * matches a prefix. */
  containers: z
    .array(z.string().regex(/^[a-z0-9]([-a-z0-9]{0,62})\*?$/, "must be a container name, optionally ending in *"))
    .min(1)
    .max(20)
    .default(["kube-apiserver", "kms-plugin*"]),
  tailLines: z.number().int("must be whole lines").min(1, "must be 1-5000").max(5000, "must be 1-5000").default(300),
  sinceSeconds: z.number().int("must be whole seconds").min(60, "must be 60-86400").max(86_400, "must be 60-86400").default(3600),
  limitBytes: z
    .number()
    .int("must be whole bytes")
    .min(1024, "must be 1024-4194304")
    .max(4 * 1024 * 1024, "must be 1024-4194304")
    .default(256 * 1024),
  /** Nodes read when no member of the incident names one (an OpenBao outage strikes every node). */
  maxNodes: z.number().int().min(1, "must be 1-20").max(20, "must be 1-20").default(3),
  /** A plugin that runs as a systemd unit: its journal through systemd-journal-gatewayd on each node. */
  journal: z
    .strictObject({
      unit: UnitName,
      /** The gatewayd of every node, "{node}" standing for the node's name: https://{node}.example.internal:19531 */
      url: GatewayUrl.optional(),
      /** Or one address per node. */
      nodes: z
        .record(z.string(), GatewayUrl)
        .superRefine((nodes, ctx) => {
          for (const name of Object.keys(nodes))
            if (!NODE_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "must be a node name (lowercase letters, digits, '-' and '.')" });
        })
        .optional(),
      caFile: z.string().min(1).optional(),
    })
    .refine((j) => j.url || j.nodes, { message: "give url (with {node}) or nodes", path: ["url"] })
    .optional(),
});
export type LogsConfig = z.infer<typeof LogsConfig>;

/** A label key as Kubernetes takes one: an optional DNS-subdomain prefix and "/", then a name of 1-63 characters. */
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_PREFIX = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
export const MAX_LABELS = 32;

function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf("/");
  return slash < 0 ? LABEL_NAME.test(key) : LABEL_PREFIX.test(key.slice(0, slash)) && LABEL_NAME.test(key.slice(slash + 1));
}

/** What the fleet view filters and searches by (env: prod, region: eu-west-1): Kubernetes' label syntax, so nothing in one can be misread. */
export const ClusterLabels = z
  .record(
    z.string(),
    z
      .string({ message: 'must be text (quote a number or true: "1")' })
      .regex(LABEL_VALUE, "must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"),
  )
  .superRefine((labels, ctx) => {
    const keys = Object.keys(labels);
    if (keys.length > MAX_LABELS) ctx.addIssue({ code: "custom", message: `at most ${MAX_LABELS} labels` });
    for (const key of keys)
      if (!isLabelKey(key))
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "must be a label key: a name of at most 63 letters, digits, '-', '_' or '.', optionally after a DNS prefix and '/' (team.example.com/env)",
        });
  });
export type ClusterLabels = z.infer<typeof ClusterLabels>;

export const ClusterConfig = z.strictObject({
  name: z.string().regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "must be a lowercase name (letters, digits, hyphens; at most 63)"),
  kubeconfig: z.string().min(1, "must be a path to a kubeconfig file").optional(),
  context: z.string().min(1).optional(),
  inCluster: z.boolean().default(false),
  openbao: z
    .strictObject({
      address: Url,
      caFile: z.string().min(1).optional(),
      tokenFile: z.string().min(1).optional(),
      transitKey: z.string().min(1).default("k8s-kek"),
    })
    .optional(),
  prometheus: z.strictObject({ url: Url }).optional(),
  /** The bridge's health endpoint: 2xx while the bridge reaches the beacon relay. */
  beacon: z.strictObject({ healthUrl: Url, caFile: z.string().min(1).optional() }).optional(),
  intervalSeconds: z
    .number({ message: "must be a number of seconds" })
    .int("must be whole seconds")
    .min(1, "must be 1-3600")
    .max(3600, "must be 1-3600")
    .default(30),
  logs: LogsConfig.optional(),
  labels: ClusterLabels.optional(),
  /** A watch with no event and no bookmark for this long is restarted (API servers send a bookmark about every minute). */
  watchStallSeconds: z
    .number({ message: "must be a number of seconds" })
    .int("must be whole seconds")
    .min(5, "must be 5-3600")
    .max(3600, "must be 5-3600")
    .default(180),
});
export type ClusterConfig = z.infer<typeof ClusterConfig>;

export const ClustersFile = z.strictObject({
  clusters: z
    .array(ClusterConfig)
    .min(1, "list at least one cluster")
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((c, i) => {
        if (seen.has(c.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate cluster name "${c.name}"` });
        seen.add(c.name);
        if (!c.inCluster && !c.kubeconfig) ctx.addIssue({ code: "custom", path: [i, "kubeconfig"], message: "give a kubeconfig path, or inCluster: true" });
        if (c.inCluster && c.kubeconfig) ctx.addIssue({ code: "custom", path: [i, "inCluster"], message: "use either inCluster or kubeconfig, not both" });
      });
    }),
});

export class ClusterConfigError extends Error {
  constructor(readonly issues: ContentIssue[]) {
    super(issues.map(formatIssue).join("; "));
  }
}

/** Parses a clusters file's text; throws ClusterConfigError whose message names file, line and field. */
export function parseClustersFile(file: string, text: string): ClusterConfig[] {
  const { source, issues } = parseYamlSource(file, text);
  if (!source) throw new ClusterConfigError(issues);
  const { value, issues: schemaIssues } = validateYaml(source, ClustersFile);
  if (!value) throw new ClusterConfigError(schemaIssues);
  return value.clusters;
}

export function loadClustersFile(file: string): ClusterConfig[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ClusterConfigError([{ file, line: 1, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` }]);
  }
  return parseClustersFile(file, text);
}
