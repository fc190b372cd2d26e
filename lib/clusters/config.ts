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
