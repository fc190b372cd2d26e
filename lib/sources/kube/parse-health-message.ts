import { describeType, isRecord, parseJson, quote } from "@/lib/sources/describe-input";
import { isRfc3339 } from "@/lib/sources/timestamps";

// The message of a KMSHealthReporter_<nodeName> condition. The merged enhancement puts all health in a
// minified JSON array; the first draft used key=value lines. Both are read so old clusters still show.

export const PLUGIN_STATUSES = ["healthy", "unhealthy", "error"] as const;
export type PluginStatus = (typeof PLUGIN_STATUSES)[number];

export interface PluginReport {
  keyID: string;
  kekID?: string;
  status: PluginStatus;
  /** As written by the reporter; callers compare it against their own clock. */
  lastChecked: string;
  detail?: string;
}

export interface ParsedHealthMessage {
  format: "json" | "legacy" | "unparseable";
  reports: PluginReport[];
  raw: string;
  error?: string;
}

const STATUS_LIST = "healthy, unhealthy or error";
const LEGACY_FIELDS = new Set(["keyID", "kekID", "status", "lastChecked", "detail"]);

export function parseHealthMessage(message: unknown): ParsedHealthMessage {
  if (typeof message !== "string") {
    return unparseable("", `message is ${describeType(message)}, not a string`);
  }
  const trimmed = message.trim();
  if (trimmed === "") return unparseable(message, "message is empty");
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) return parseJsonMessage(message);
  if (/^[A-Za-z]+=/.test(trimmed)) return parseLegacyMessage(message);
  return unparseable(message, `message is neither a JSON array nor key=value lines: starts with ${quote(trimmed, 20)}`);
}

function unparseable(raw: string, error: string): ParsedHealthMessage {
  return { format: "unparseable", reports: [], raw, error };
}

function parseJsonMessage(message: string): ParsedHealthMessage {
  const json = parseJson(message);
  if (!json.ok) return unparseable(message, json.error);
  if (!Array.isArray(json.value)) {
    return unparseable(message, `expected a JSON array of plugin reports, got ${describeType(json.value)}`);
  }
  const errors: string[] = [];
  const reports: PluginReport[] = [];
  const entryOf: number[] = [];
  json.value.forEach((entry, i) => {
    const report = readJsonEntry(entry, `entry ${i + 1}`, errors);
    if (report) {
      reports.push(report);
      entryOf.push(i + 1);
    }
  });
  checkDuplicates(reports, errors, (i) => `entry ${entryOf[i]}`);
  if (errors.length > 0) return unparseable(message, errors.join("; "));
  return { format: "json", reports, raw: message };
}

function readJsonEntry(entry: unknown, where: string, errors: string[]): PluginReport | undefined {
  if (!isRecord(entry)) {
    errors.push(`${where}: expected an object, got ${describeType(entry)}`);
    return undefined;
  }
  const before = errors.length;
  // Go's encoder omits empty optional strings and its decoder reads null as empty, so both mean "absent".
  const text = (field: string, required: boolean): string | undefined => {
    const value = entry[field];
    if (value === undefined || value === null || value === "") {
      if (required) errors.push(`${where}: ${field} is ${value === "" ? "empty" : "missing"}`);
      return undefined;
    }
    if (typeof value !== "string") {
      errors.push(`${where}: ${field} must be a string, got ${describeType(value)}`);
      return undefined;
    }
    return value;
  };
  const keyID = text("keyID", true);
  const kekID = text("kekID", false);
  const status = text("status", true);
  const lastChecked = text("lastChecked", true);
  const detail = text("detail", false);
  const report = buildReport(where, { keyID, kekID, status, lastChecked, detail }, errors, false);
  return errors.length === before ? report : undefined;
}

function parseLegacyMessage(message: string): ParsedHealthMessage {
  const errors: string[] = [];
  const reports: PluginReport[] = [];
  const lineOf: number[] = [];
  message.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `line ${i + 1}`;
    const fields = tokenizeLegacyLine(line.trim(), where, errors);
    if (!fields) return;
    const report = buildReport(where, fields, errors, true);
    if (report) {
      reports.push(report);
      lineOf.push(i + 1);
    }
  });
  checkDuplicates(reports, errors, (i) => `line ${lineOf[i]}`);
  if (errors.length > 0) return unparseable(message, errors.join("; "));
  return { format: "legacy", reports, raw: message };
}

// Space-separated key=value pairs; detail= swallows the rest of the line because its value may hold
// spaces and '=' (the draft guarantees it comes last).
function tokenizeLegacyLine(line: string, where: string, errors: string[]): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  let rest = line;
  while (rest !== "") {
    const key = /^([A-Za-z][A-Za-z0-9]*)=/.exec(rest);
    if (!key) {
      errors.push(`${where}: expected key=value, got ${quote(rest.split(/\s/)[0], 30)}`);
      return undefined;
    }
    const name = key[1];
    rest = rest.slice(key[0].length);
    let value: string;
    if (name === "detail") {
      value = rest.trimEnd();
      rest = "";
    } else {
      const end = rest.search(/\s/);
      value = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? "" : rest.slice(end).trimStart();
    }
    if (!LEGACY_FIELDS.has(name)) {
      errors.push(`${where}: unknown field ${quote(name)}`);
      return undefined;
    }
    if (name in fields) {
      errors.push(`${where}: ${name} appears twice`);
      return undefined;
    }
    fields[name] = value;
  }
  return fields;
}

function buildReport(where: string, fields: Partial<Record<keyof PluginReport, string>>, errors: string[], legacy: boolean): PluginReport | undefined {
  const before = errors.length;
  const { keyID, kekID, lastChecked, detail } = fields;
  if (legacy) {
    if (!keyID) errors.push(`${where}: keyID is ${keyID === "" ? "empty" : "missing"}`);
    if (fields.status === undefined) errors.push(`${where}: status is missing`);
    if (!lastChecked) errors.push(`${where}: lastChecked is ${lastChecked === "" ? "empty" : "missing"}`);
  }
  let status: PluginStatus | undefined;
  if (fields.status !== undefined) {
    // The draft called a failed RPC "unreachable"; the merged text renamed that outcome "error".
    const given = legacy && fields.status === "unreachable" ? "error" : fields.status;
    if ((PLUGIN_STATUSES as readonly string[]).includes(given)) status = given as PluginStatus;
    else errors.push(`${where}: status ${quote(fields.status)} is not ${STATUS_LIST}`);
  }
  if (lastChecked && !isRfc3339(lastChecked)) {
    errors.push(`${where}: lastChecked ${quote(lastChecked)} is not an RFC 3339 timestamp`);
  }
  if (errors.length > before || !keyID || !status || !lastChecked) return undefined;
  return {
    keyID,
    ...(kekID ? { kekID } : {}),
    status,
    lastChecked,
    ...(detail ? { detail } : {}),
  };
}

// One reporter probes each socket once per tick, so a repeated keyID means a corrupted message.
function checkDuplicates(reports: PluginReport[], errors: string[], where: (i: number) => string): void {
  const seen = new Map<string, number>();
  reports.forEach((report, i) => {
    const first = seen.get(report.keyID);
    if (first === undefined) seen.set(report.keyID, i);
    else errors.push(`${where(i)}: keyID ${quote(report.keyID)} repeats ${where(first)}`);
  });
}
