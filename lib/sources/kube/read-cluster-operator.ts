import { z } from "zod";
import { describeIssues, describeType, isRecord } from "@/lib/sources/describe-input";
import { readConditions, type OperatorCondition } from "./operator-condition";
import type { ReadProblem } from "./read-problem";

// clusteroperators.config.openshift.io: the rollup an admin sees in `oc get co`. library-go's
// UnionClusterCondition prefixes each message line with the operator condition that caused it and
// joins the causes' reasons with "::", so both are split back out here.

export const OperandVersion = z.object({ name: z.string().min(1, "name is empty"), version: z.string() });
export type OperandVersion = z.infer<typeof OperandVersion>;

// group and name are empty strings for the core group and for "all objects of this resource".
export const RelatedObject = z.object({
  group: z.string(),
  resource: z.string().min(1, "resource is empty"),
  namespace: z.string().optional(),
  name: z.string(),
});
export type RelatedObject = z.infer<typeof RelatedObject>;

export interface ConditionSummary {
  status: OperatorCondition["status"];
  reason?: string;
  message?: string;
  lastTransitionTime: string;
  /** Operator conditions named in the message ("KMSPluginsDegraded: master-1: ..."), one per line. */
  sources: { type: string; message: string }[];
  /** The reason split on "::" (e.g. ["KMSPlugins_KMSPluginsUnhealthy"]). */
  reasons: string[];
}

export interface ClusterOperatorView {
  name?: string;
  conditions: OperatorCondition[];
  available?: ConditionSummary;
  progressing?: ConditionSummary;
  degraded?: ConditionSummary;
  upgradeable?: ConditionSummary;
  versions: OperandVersion[];
  relatedObjects: RelatedObject[];
  problems: ReadProblem[];
}

export function readClusterOperator(obj: unknown): ClusterOperatorView {
  const view: ClusterOperatorView = { conditions: [], versions: [], relatedObjects: [], problems: [] };
  if (!isRecord(obj)) {
    view.problems.push({ kind: "wrong-type", subject: "ClusterOperator", fields: { found: describeType(obj), expected: "an object" } });
    return view;
  }
  if (isRecord(obj.metadata) && typeof obj.metadata.name === "string") view.name = obj.metadata.name;
  if (obj.status === undefined || obj.status === null) return view;
  if (!isRecord(obj.status)) {
    view.problems.push({ kind: "wrong-type", subject: "status", fields: { found: describeType(obj.status), expected: "an object" } });
    return view;
  }
  view.conditions = readConditions(obj.status.conditions, "status.conditions", view.problems);
  const summary = (type: string) => {
    const condition = view.conditions.find((c) => c.type === type);
    return condition ? summarize(condition) : undefined;
  };
  view.available = summary("Available");
  view.progressing = summary("Progressing");
  view.degraded = summary("Degraded");
  view.upgradeable = summary("Upgradeable");
  for (const key of ["available", "progressing", "degraded", "upgradeable"] as const) {
    if (view[key] === undefined) delete view[key];
  }
  view.versions = readList(obj.status.versions, "status.versions", OperandVersion, view.problems);
  view.relatedObjects = readList(obj.status.relatedObjects, "status.relatedObjects", RelatedObject, view.problems);
  return view;
}

function summarize(condition: OperatorCondition): ConditionSummary {
  const sources: ConditionSummary["sources"] = [];
  for (const line of (condition.message ?? "").split("\n")) {
    const match = /^([A-Za-z0-9][-A-Za-z0-9_.]*): (.*)$/.exec(line);
    if (match) sources.push({ type: match[1], message: match[2] });
  }
  return {
    status: condition.status,
    ...(condition.reason !== undefined ? { reason: condition.reason } : {}),
    ...(condition.message !== undefined ? { message: condition.message } : {}),
    lastTransitionTime: condition.lastTransitionTime,
    sources,
    reasons: condition.reason ? condition.reason.split("::") : [],
  };
}

function readList<T>(value: unknown, at: string, schema: z.ZodType<T>, problems: ReadProblem[]): T[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ kind: "wrong-type", subject: at, fields: { found: describeType(value), expected: "an array" } });
    return [];
  }
  const items: T[] = [];
  value.forEach((entry, i) => {
    const result = schema.safeParse(entry);
    if (result.success) items.push(result.data);
    else
      problems.push({
        kind: "entry-skipped",
        subject: `${at}[${i}]`,
        fields: { list: at, index: i, type: null, issues: describeIssues(result.error).join("; ") },
      });
  });
  return items;
}
