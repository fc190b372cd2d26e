import { z } from "zod";
import { describeIssues, describeType, enumError } from "@/lib/sources/describe-input";
import { Rfc3339 } from "@/lib/sources/timestamps";
import type { ReadProblem } from "./read-problem";

// openshift/api OperatorCondition; ClusterOperatorStatusCondition has the same fields, so both CRs use it.
// The type pattern is the one the CRD enforces, which is why KMSHealthReporter_master-0 is valid.
const CONDITION_TYPE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;
export const CONDITION_STATUSES = ["True", "False", "Unknown"] as const;

export const OperatorCondition = z.object({
  type: z
    .string()
    .min(1, "type is empty")
    .max(316, "type is longer than 316 characters")
    .regex(CONDITION_TYPE, "type does not match the condition type pattern"),
  status: z.enum(CONDITION_STATUSES, { error: enumError(CONDITION_STATUSES) }),
  lastTransitionTime: Rfc3339,
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type OperatorCondition = z.infer<typeof OperatorCondition>;

/**
 * Reads a conditions list entry by entry: valid ones are kept, each bad one becomes a problem naming its
 * index and type. Duplicate types break the list-map contract; the first wins, as a map lookup would.
 */
export function readConditions(value: unknown, at: string, problems: ReadProblem[]): OperatorCondition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ kind: "wrong-type", subject: at, fields: { found: describeType(value), expected: "an array" } });
    return [];
  }
  const conditions: OperatorCondition[] = [];
  const firstIndex = new Map<string, number>();
  value.forEach((entry, i) => {
    const result = OperatorCondition.safeParse(entry);
    const given = (entry as { type?: unknown } | null)?.type;
    const type = typeof given === "string" ? given : null;
    if (!result.success) {
      problems.push({ kind: "entry-skipped", subject: `${at}[${i}]`, fields: { list: at, index: i, type, issues: describeIssues(result.error).join("; ") } });
      return;
    }
    const first = firstIndex.get(result.data.type);
    if (first !== undefined) {
      problems.push({
        kind: "entry-repeats",
        subject: `${at}[${i}]`,
        fields: { list: at, index: i, first, type: result.data.type, nodeName: null, keyID: null },
      });
      return;
    }
    firstIndex.set(result.data.type, i);
    conditions.push(result.data);
  });
  return conditions;
}
