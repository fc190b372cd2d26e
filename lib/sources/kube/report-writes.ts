import { isRecord } from "@/lib/sources/describe-input";
import { isRfc3339 } from "@/lib/sources/timestamps";

// When the API server last recorded each KMS health report's write, from the CR's metadata.managedFields: every
// reporter applies as its own field manager, and the server stamps that manager's entry with its own clock. A
// report whose lastChecked lags far behind the server's stamp of its write comes from a node whose clock is
// behind, not from a reporter that stopped. The fields are hostile input: bounded, and anything odd is skipped.

const MAX_MANAGERS = 500;
const MAX_KEYS_PER_MANAGER = 500;
const MAX_KEY_LENGTH = 1_100;

/** The key a report's write is recorded under: node and keyID for a typed report, the node for a reporter condition. */
export const writeKey = (node: string, keyID?: string): string => (keyID === undefined ? node : `${node}\u0000${keyID}`);

/** Write times (ISO, the newest per report) keyed by writeKey. */
export function readReportWrites(managedFields: unknown, conditionPrefix: string): Record<string, string> {
  const writes: Record<string, string> = {};
  if (!Array.isArray(managedFields)) return writes;
  const keep = (key: string, time: string) => {
    if (writes[key] === undefined || Date.parse(time) > Date.parse(writes[key])) writes[key] = time;
  };
  for (const entry of managedFields.slice(0, MAX_MANAGERS)) {
    if (!isRecord(entry) || typeof entry.time !== "string" || !isRfc3339(entry.time) || !isRecord(entry.fieldsV1)) continue;
    const status = entry.fieldsV1["f:status"];
    if (!isRecord(status)) continue;
    const encryption = status["f:encryptionStatus"];
    const reports = isRecord(encryption) ? encryption["f:healthReports"] : undefined;
    for (const [key, owned] of listKeys(reports)) {
      // Only the manager that writes lastCheckedTime vouches for the report's freshness.
      if (!isRecord(owned) || !("f:lastCheckedTime" in owned)) continue;
      const { nodeName, keyID } = key;
      if (typeof nodeName === "string" && typeof keyID === "string") keep(writeKey(nodeName, keyID), entry.time);
    }
    for (const [key, owned] of listKeys(status["f:conditions"])) {
      if (!isRecord(owned) || !("f:message" in owned) || typeof key.type !== "string" || !key.type.startsWith(conditionPrefix)) continue;
      keep(writeKey(key.type.slice(conditionPrefix.length)), entry.time);
    }
  }
  return writes;
}

/** The entries of a list-map in FieldsV1 ("k:{...}" keys), with their key fields parsed. */
function listKeys(fields: unknown): [Record<string, unknown>, unknown][] {
  if (!isRecord(fields)) return [];
  const out: [Record<string, unknown>, unknown][] = [];
  for (const [raw, owned] of Object.entries(fields).slice(0, MAX_KEYS_PER_MANAGER)) {
    if (!raw.startsWith("k:") || raw.length > MAX_KEY_LENGTH) continue;
    try {
      const key: unknown = JSON.parse(raw.slice(2));
      if (isRecord(key)) out.push([key, owned]);
    } catch {
      // not a list-map key: skipped
    }
  }
  return out;
}
