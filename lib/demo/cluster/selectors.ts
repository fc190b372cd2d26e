import type { JsonObject } from "./fields";
import type { ResourceType } from "./resources";
import { StoreError } from "./store";

// Label selectors (equality- and set-based) and field selectors, parsed and matched as
// k8s.io/apimachinery does, with the same refusals for what it refuses.

export type Matcher = (object: JsonObject) => boolean;

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function badSelector(message: string): StoreError {
  return new StoreError(400, "BadRequest", `unable to parse requirement: ${message}`);
}

function checkKey(key: string): void {
  const slash = key.lastIndexOf("/");
  const [prefix, name] = slash >= 0 ? [key.slice(0, slash), key.slice(slash + 1)] : ["", key];
  if (slash >= 0 && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    throw badSelector(`key: Invalid value: ${JSON.stringify(key)}: prefix part must be a DNS-1123 subdomain`);
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) {
    throw badSelector(
      `key: Invalid value: ${JSON.stringify(key)}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
}

function checkValue(value: string): void {
  if (value.length > 63 || (value !== "" && !NAME.test(value))) {
    throw badSelector(
      `values[0][${value}]: Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
}

/** Splits on commas that are not inside parentheses. */
function requirements(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  out.push(current.trim());
  return out.filter((r) => r !== "");
}

const labelsOf = (object: JsonObject) => ((object.metadata as JsonObject | undefined)?.labels ?? {}) as Record<string, string>;

export function labelSelector(text: string | null): Matcher | undefined {
  if (!text || text.trim() === "") return undefined;
  const tests: Matcher[] = requirements(text).map((req) => {
    let m = /^!\s*(\S+)$/.exec(req);
    if (m) {
      checkKey(m[1]);
      return (o) => !(m![1] in labelsOf(o));
    }
    m = /^(\S+?)\s+(in|notin)\s*\(([^)]*)\)$/.exec(req);
    if (m) {
      const [, key, op, list] = m;
      checkKey(key);
      const values = new Set(list.split(",").map((v) => v.trim()));
      values.forEach(checkValue);
      if (op === "in") return (o) => key in labelsOf(o) && values.has(labelsOf(o)[key]);
      return (o) => !(key in labelsOf(o)) || !values.has(labelsOf(o)[key]);
    }
    m = /^([^!=<>\s]+)\s*(==|=|!=|<|>)\s*(\S*)$/.exec(req);
    if (m) {
      const [, key, op, value] = m;
      checkKey(key);
      if (op === "<" || op === ">") {
        if (!/^-?\d+$/.test(value)) throw badSelector(`for 'Gt', 'Lt' operators, the value must be an integer`);
        const bound = Number(value);
        return (o) =>
          key in labelsOf(o) && /^-?\d+$/.test(labelsOf(o)[key]) && (op === "<" ? Number(labelsOf(o)[key]) < bound : Number(labelsOf(o)[key]) > bound);
      }
      checkValue(value);
      if (op === "!=") return (o) => labelsOf(o)[key] !== value;
      return (o) => key in labelsOf(o) && labelsOf(o)[key] === value;
    }
    if (/^[^\s!=<>(),]+$/.test(req)) {
      checkKey(req);
      return (o) => req in labelsOf(o);
    }
    throw badSelector(`found '${req}', expected: !, identifier, or 'end of string'`);
  });
  return (object) => tests.every((t) => t(object));
}

/** Fields each built-in kind can be selected on besides metadata.name and metadata.namespace. */
const FIELDS: Record<string, Record<string, (o: JsonObject) => string>> = {
  Pod: {
    "spec.nodeName": (o) => String((o.spec as JsonObject | undefined)?.nodeName ?? ""),
    "spec.restartPolicy": (o) => String((o.spec as JsonObject | undefined)?.restartPolicy ?? ""),
    "spec.schedulerName": (o) => String((o.spec as JsonObject | undefined)?.schedulerName ?? ""),
    "spec.serviceAccountName": (o) => String((o.spec as JsonObject | undefined)?.serviceAccountName ?? ""),
    "spec.hostNetwork": (o) => String((o.spec as JsonObject | undefined)?.hostNetwork ?? false),
    "status.phase": (o) => String((o.status as JsonObject | undefined)?.phase ?? ""),
    "status.podIP": (o) => String((o.status as JsonObject | undefined)?.podIP ?? ""),
    "status.nominatedNodeName": (o) => String((o.status as JsonObject | undefined)?.nominatedNodeName ?? ""),
  },
  Node: { "spec.unschedulable": (o) => String((o.spec as JsonObject | undefined)?.unschedulable ?? false) },
  Namespace: { "status.phase": (o) => String((o.status as JsonObject | undefined)?.phase ?? "") },
};

const unescape = (v: string) => v.replace(/\\(.)/g, "$1");

export function fieldSelector(text: string | null, type: ResourceType): Matcher | undefined {
  if (!text || text.trim() === "") return undefined;
  const parts = text.split(/(?<!\\),/).filter((p) => p.trim() !== "");
  const tests: Matcher[] = parts.map((part) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part.trim());
    if (!m) throw new StoreError(400, "BadRequest", `invalid selector: '${text}'; can't understand '${part}'`);
    const [, field, op, raw] = m;
    const value = unescape(raw);
    const read: ((o: JsonObject) => string) | undefined =
      field === "metadata.name"
        ? (o) => String((o.metadata as JsonObject).name ?? "")
        : field === "metadata.namespace"
          ? (o) => String((o.metadata as JsonObject).namespace ?? "")
          : FIELDS[type.group === "" ? type.kind : ""]?.[field];
    if (!read) throw new StoreError(400, "BadRequest", `field label not supported: ${field}`);
    return op === "!=" ? (o) => read(o) !== value : (o) => read(o) === value;
  });
  return (object) => tests.every((t) => t(object));
}

/** The one matcher for a request's labelSelector and fieldSelector. */
export function selectorsOf(url: URL, type: ResourceType): Matcher {
  const labels = labelSelector(url.searchParams.get("labelSelector"));
  const fields = fieldSelector(url.searchParams.get("fieldSelector"), type);
  return (o) => (!labels || labels(o)) && (!fields || fields(o));
}
