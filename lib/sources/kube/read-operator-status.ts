import { z } from "zod";
import { describeIssues, describeType, enumError, isRecord } from "@/lib/sources/describe-input";
import { readConditions, type OperatorCondition } from "./operator-condition";
import { parseHealthMessage, type ParsedHealthMessage } from "./parse-health-message";
import { Rfc3339 } from "@/lib/sources/timestamps";
import type { ReadProblem } from "./read-problem";
import { readReportWrites } from "./report-writes";

export { OperatorCondition } from "./operator-condition";

// Reads a kubeapiservers/openshiftapiservers/authentications.operator.openshift.io CR in both health shapes:
// the enhancement's KMSHealthReporter_<nodeName> conditions and the typed status.encryptionStatus that shipped.

export const REPORTER_CONDITION_PREFIX = "KMSHealthReporter_";
const HEALTH_REPORT_STATUSES = ["Healthy", "Unhealthy", "Error"] as const;
const MAX_HEALTH_REPORTS = 200;

export const HealthReport = z.object({
  nodeName: z.string().min(1, "nodeName is empty"),
  keyID: z.string().min(1, "keyID is empty").max(512, "keyID is longer than 512 characters"),
  status: z.enum(HEALTH_REPORT_STATUSES, { error: enumError(HEALTH_REPORT_STATUSES) }),
  lastCheckedTime: Rfc3339,
  // The CRD requires remoteKeyID, but library-go's prober sets it only on Healthy reports, so a reader
  // that insisted on it would drop exactly the reports that matter.
  remoteKeyID: z.string().min(1, "remoteKeyID is empty").optional(),
  detail: z.string().optional(),
});
export type HealthReport = z.infer<typeof HealthReport>;

const PREFLIGHT_STATUSES = ["Succeeded", "Failed"] as const;
export const KmsPreflight = z.object({
  observedConfigHash: z.string().optional(),
  result: z
    .object({
      status: z.enum(PREFLIGHT_STATUSES, { error: enumError(PREFLIGHT_STATUSES) }),
      configHash: z.string().optional(),
      remoteKeyID: z.string().optional(),
    })
    .optional(),
});
export type KmsPreflight = z.infer<typeof KmsPreflight>;

export interface ReporterCondition {
  nodeName: string;
  condition: OperatorCondition;
  parsed: ParsedHealthMessage;
}

export interface OperatorStatusView {
  name?: string;
  resourceVersion?: string;
  conditions: OperatorCondition[];
  reporterConditions: ReporterCondition[];
  typedReports: HealthReport[];
  preflight?: KmsPreflight;
  /** When the API server recorded each report's last write (report-writes.ts), keyed by writeKey. */
  reportWrites: Record<string, string>;
  problems: ReadProblem[];
}

export function readOperatorStatus(cr: unknown): OperatorStatusView {
  const view: OperatorStatusView = { conditions: [], reporterConditions: [], typedReports: [], reportWrites: {}, problems: [] };
  if (!isRecord(cr)) {
    view.problems.push(wrongType("operator CR", cr, "an object"));
    return view;
  }
  const metadata = isRecord(cr.metadata) ? cr.metadata : {};
  if (typeof metadata.name === "string") view.name = metadata.name;
  if (typeof metadata.resourceVersion === "string") view.resourceVersion = metadata.resourceVersion;
  view.reportWrites = readReportWrites(metadata.managedFields, REPORTER_CONDITION_PREFIX);

  // No status at all is a CR nobody has reconciled yet: nothing observed, not malformed.
  if (cr.status === undefined || cr.status === null) return view;
  if (!isRecord(cr.status)) {
    view.problems.push(wrongType("status", cr.status, "an object"));
    return view;
  }
  view.conditions = readConditions(cr.status.conditions, "status.conditions", view.problems);
  view.reporterConditions = readReporterConditions(view.conditions, view.problems);

  const encryption = cr.status.encryptionStatus;
  if (encryption !== undefined && encryption !== null) {
    if (!isRecord(encryption)) {
      view.problems.push(wrongType("status.encryptionStatus", encryption, "an object"));
    } else {
      view.typedReports = readTypedReports(encryption.healthReports, view.problems);
      const preflight = readPreflight(encryption.preflight, view.problems);
      if (preflight) view.preflight = preflight;
    }
  }
  return view;
}

function readReporterConditions(conditions: OperatorCondition[], problems: ReadProblem[]): ReporterCondition[] {
  return conditions
    .filter((c) => c.type.startsWith(REPORTER_CONDITION_PREFIX))
    .map((condition) => {
      const parsed = parseHealthMessage(condition.message ?? "");
      const nodeName = condition.type.slice(REPORTER_CONDITION_PREFIX.length);
      if (parsed.format === "unparseable") {
        problems.push({ kind: "message-unparseable", subject: condition.type, fields: { node: nodeName, error: String(parsed.error) } });
      }
      return { nodeName, condition, parsed };
    });
}

function readTypedReports(value: unknown, problems: ReadProblem[]): HealthReport[] {
  const at = "status.encryptionStatus.healthReports";
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(wrongType(at, value, "an array"));
    return [];
  }
  if (value.length > MAX_HEALTH_REPORTS) {
    problems.push({ kind: "too-many-entries", subject: at, fields: { count: value.length, max: MAX_HEALTH_REPORTS } });
  }
  const reports: HealthReport[] = [];
  const firstIndex = new Map<string, number>();
  value.forEach((entry, i) => {
    const result = HealthReport.safeParse(entry);
    if (!result.success) {
      problems.push({
        kind: "entry-skipped",
        subject: `${at}[${i}]`,
        fields: { list: at, index: i, type: null, issues: describeIssues(result.error).join("; ") },
      });
      return;
    }
    // The list is a map keyed by (nodeName, keyID); a second entry for the same pair cannot be applied.
    const key = JSON.stringify([result.data.nodeName, result.data.keyID]);
    const first = firstIndex.get(key);
    if (first !== undefined) {
      const { nodeName, keyID } = result.data;
      problems.push({ kind: "entry-repeats", subject: `${at}[${i}]`, fields: { list: at, index: i, first, type: null, nodeName, keyID } });
      return;
    }
    firstIndex.set(key, i);
    reports.push(result.data);
  });
  return reports;
}

function readPreflight(value: unknown, problems: ReadProblem[]): KmsPreflight | undefined {
  const at = "status.encryptionStatus.preflight";
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    problems.push({ kind: "entry-wrong-type", subject: at, fields: { found: describeType(value), expected: "an object" } });
    return undefined;
  }
  const result = KmsPreflight.safeParse(value);
  if (!result.success) {
    problems.push({ kind: "entry-skipped", subject: at, fields: { list: at, index: null, type: null, issues: describeIssues(result.error).join("; ") } });
    return undefined;
  }
  return result.data;
}

function wrongType(subject: string, value: unknown, expected: "an object" | "an array"): ReadProblem {
  return { kind: "wrong-type", subject, fields: { found: describeType(value), expected } };
}
