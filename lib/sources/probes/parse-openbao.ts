import { z } from "zod";
import { decodeBody, describeIssues, describeType, isRecord, quote } from "@/lib/sources/describe-input";

// OpenBao/Vault /v1/sys/health and a Transit key read. The HTTP status is the primary signal (it is what
// load balancers key on); the body is cross-checked so an overridden code (activecode=, sealedcode=, …)
// or an inconsistent node shows up as a problem instead of a wrong state.

export type OpenBaoState = "active" | "standby" | "sealed" | "uninitialized" | "dr-secondary" | "perf-standby" | "unexpected";

export interface OpenBaoHealth {
  state: OpenBaoState;
  httpStatus: number;
  initialized?: boolean;
  sealed?: boolean;
  standby?: boolean;
  performanceStandby?: boolean;
  replicationPerformanceMode?: string;
  replicationDrMode?: string;
  version?: string;
  clusterName?: string;
  clusterId?: string;
  /** Unix seconds, as the server reports it. */
  serverTimeUtc?: number;
  problem?: string;
  note?: string;
}

const DEFAULT_CODES: Record<number, OpenBaoState> = {
  200: "active",
  429: "standby",
  472: "dr-secondary",
  473: "perf-standby",
  501: "uninitialized",
  503: "sealed",
};
const ENTERPRISE_ONLY = "Vault Enterprise only: OpenBao never returns 472 or 473";

export function parseOpenBaoHealth(httpStatus: number, body: unknown): OpenBaoHealth {
  const problems: string[] = [];
  const notes: string[] = [];
  const health: OpenBaoHealth = { state: "unexpected", httpStatus };
  const decoded = body === "" ? { ok: true as const, value: undefined } : decodeBody(body);
  if (!decoded.ok) problems.push(`body: ${decoded.error}`);
  const fields = decoded.ok ? decoded.value : undefined;
  if (fields === undefined || fields === null) {
    if (decoded.ok) notes.push("no body (a HEAD request returns only the status code)");
  } else if (!isRecord(fields)) {
    problems.push(`body is ${describeType(fields)}, not an object`);
  } else {
    readBodyFields(fields, health, problems);
    if (Array.isArray(fields.errors)) {
      problems.push(`server returned errors: ${fields.errors.map((e) => quote(String(e))).join(", ")}`);
    }
  }

  const fromBody = stateFromBody(health);
  const fromCode = DEFAULT_CODES[httpStatus];
  if (fromCode) {
    health.state = fromCode;
    if (httpStatus === 472 || httpStatus === 473) notes.push(ENTERPRISE_ONLY);
    if (httpStatus === 200 && fromBody === "standby") {
      health.state = "standby";
      notes.push("HTTP 200 from a standby: the request asked for standbyok");
    } else if (httpStatus === 200 && fromBody === "perf-standby") {
      health.state = "perf-standby";
      notes.push("HTTP 200 from a performance standby: the request asked for perfstandbyok");
    } else if (fromBody && fromBody !== fromCode) {
      problems.push(`HTTP ${httpStatus} means ${fromCode} but the body describes a ${fromBody} node (status code overridden?)`);
    }
  } else if (httpStatus === 474) {
    health.state = "standby";
    problems.push("HTTP 474: standby cannot reach the active node (a Vault code; OpenBao does not send it)");
  } else if (httpStatus === 530) {
    problems.push("HTTP 530: node was removed from the cluster (a Vault code; OpenBao does not send it)");
  } else if (fromBody) {
    health.state = fromBody;
    notes.push(`HTTP ${httpStatus} is not a default sys/health code; state read from the body (code overridden?)`);
  } else {
    problems.push(`HTTP ${httpStatus} is not a sys/health status code and the body does not say what the node is`);
  }
  if (health.performanceStandby !== undefined && !notes.includes(ENTERPRISE_ONLY)) {
    notes.push("body has performance_standby, which only Vault Enterprise reports");
  }
  if (problems.length > 0) health.problem = problems.join("; ");
  if (notes.length > 0) health.note = notes.join("; ");
  return health;
}

function readBodyFields(body: Record<string, unknown>, health: OpenBaoHealth, problems: string[]): void {
  const take = <K extends keyof OpenBaoHealth>(key: K, field: string, type: "boolean" | "string" | "number") => {
    const value = body[field];
    if (value === undefined || value === null) return;
    if (typeof value === type) health[key] = value as OpenBaoHealth[K];
    else problems.push(`${field} is ${describeType(value)}, not a ${type}`);
  };
  take("initialized", "initialized", "boolean");
  take("sealed", "sealed", "boolean");
  take("standby", "standby", "boolean");
  take("performanceStandby", "performance_standby", "boolean");
  take("replicationPerformanceMode", "replication_performance_mode", "string");
  take("replicationDrMode", "replication_dr_mode", "string");
  take("version", "version", "string");
  take("clusterName", "cluster_name", "string");
  take("clusterId", "cluster_id", "string");
  take("serverTimeUtc", "server_time_utc", "number");
}

// Order matters: an uninitialized node also reports sealed and standby.
function stateFromBody(h: OpenBaoHealth): OpenBaoState | undefined {
  if (h.initialized === undefined && h.sealed === undefined && h.standby === undefined) return undefined;
  if (h.initialized === false) return "uninitialized";
  if (h.sealed === true) return "sealed";
  if (h.replicationDrMode === "secondary") return "dr-secondary";
  if (h.performanceStandby === true) return "perf-standby";
  if (h.standby === true) return "standby";
  if (h.initialized === true && h.sealed === false && h.standby === false) return "active";
  return undefined;
}

const Version = z.number().int().min(0);
// Only the fields a health view needs; wrap_info and auth are never read because they can carry tokens.
const TransitKeyData = z.object({
  name: z.string().min(1, "name is empty"),
  type: z.string().min(1, "type is empty"),
  deletion_allowed: z.boolean(),
  min_decryption_version: Version,
  min_encryption_version: Version,
  min_available_version: Version.optional(),
  latest_version: z.number().int().min(1),
  exportable: z.boolean().optional(),
  supports_encryption: z.boolean().optional(),
  supports_decryption: z.boolean().optional(),
  auto_rotate_period: z.number().min(0).optional(),
  soft_deleted: z.boolean().optional(),
  keys: z.record(z.string(), z.unknown()),
});

export interface TransitKey {
  kind: "transit-key";
  name: string;
  type: string;
  deletionAllowed: boolean;
  minDecryptionVersion: number;
  minEncryptionVersion: number;
  minAvailableVersion?: number;
  latestVersion: number;
  /** Key versions present, ascending. */
  versions: number[];
  /** Versions that can still decrypt: at or above min_decryption_version. */
  decryptableVersions: number[];
  autoRotatePeriodSeconds?: number;
  exportable?: boolean;
  softDeleted?: boolean;
  problems: string[];
}

/** Why a Transit key answer gave no key: OpenBao said so (an errors list: no such key), or the answer is malformed. */
export interface TransitKeyProblem {
  kind: "problem";
  failure: "read-failed" | "malformed";
  problem: string;
}

export function parseTransitKey(envelope: unknown): TransitKey | TransitKeyProblem {
  const decoded = decodeBody(envelope);
  if (!decoded.ok) return { kind: "problem", failure: "malformed", problem: `transit key response: ${decoded.error}` };
  const value = decoded.value;
  if (!isRecord(value)) return { kind: "problem", failure: "malformed", problem: `transit key response is ${describeType(value)}, not an object` };
  if (!isRecord(value.data)) {
    if (Array.isArray(value.errors)) {
      const errors = value.errors.map((e) => quote(String(e))).join(", ");
      return { kind: "problem", failure: "read-failed", problem: `transit key read failed: ${errors || "no such key (empty errors list)"}` };
    }
    return { kind: "problem", failure: "malformed", problem: `transit key response has no data object (data is ${describeType(value.data)})` };
  }
  const result = TransitKeyData.safeParse(value.data);
  if (!result.success) {
    return { kind: "problem", failure: "malformed", problem: `transit key data is invalid: ${describeIssues(result.error, "data").join("; ")}` };
  }
  const data = result.data;
  const problems: string[] = [];
  const versions: number[] = [];
  for (const key of Object.keys(data.keys)) {
    if (/^[1-9]\d*$/.test(key)) versions.push(Number(key));
    else problems.push(`data.keys has ${quote(key)}, which is not a key version`);
  }
  versions.sort((a, b) => a - b);
  const newest = versions[versions.length - 1];
  if (newest !== data.latest_version) {
    problems.push(`latest_version is ${data.latest_version} but the newest version in keys is ${newest ?? "none"}`);
  }
  if (data.min_decryption_version > data.latest_version) {
    problems.push(`min_decryption_version ${data.min_decryption_version} is above latest_version ${data.latest_version}`);
  }
  if (data.min_encryption_version > data.latest_version) {
    problems.push(`min_encryption_version ${data.min_encryption_version} is above latest_version ${data.latest_version}`);
  }
  return {
    kind: "transit-key",
    name: data.name,
    type: data.type,
    deletionAllowed: data.deletion_allowed,
    minDecryptionVersion: data.min_decryption_version,
    minEncryptionVersion: data.min_encryption_version,
    ...(data.min_available_version !== undefined ? { minAvailableVersion: data.min_available_version } : {}),
    latestVersion: data.latest_version,
    versions,
    decryptableVersions: versions.filter((v) => v >= data.min_decryption_version),
    ...(data.auto_rotate_period !== undefined ? { autoRotatePeriodSeconds: data.auto_rotate_period } : {}),
    ...(data.exportable !== undefined ? { exportable: data.exportable } : {}),
    ...(data.soft_deleted !== undefined ? { softDeleted: data.soft_deleted } : {}),
    problems,
  };
}
