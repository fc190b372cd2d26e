// Field paths for server-side apply, in the same FieldsV1 vocabulary the API server uses:
// "f:status" for a map key, 'k:{"type":"X"}' for an entry of a list-type=map list, "." for the
// entry itself. Values are plain JSON.

/**
 * One path segment, escaped so that "/" inside a key (a label such as kubernetes.io/hostname) is not
 * taken for a separator. Paths join segments with "/"; "." in keys needs no escaping.
 */
export const seg = (text: string) => text.replace(/%/g, "%25").replace(/\//g, "%2F");
const unseg = (text: string) => text.replace(/%2F/g, "/").replace(/%25/g, "%");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** Flattens the applied parts of an object into leaf paths -> values. */
export function flattenApplied(body: JsonObject, listMapKeys: Record<string, string[]>, roots: string[]): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (value: Json, dotted: string, segments: string[]) => {
    const keys = listMapKeys[dotted];
    if (Array.isArray(value) && keys) {
      for (const item of value) {
        if (!isObject(item)) continue;
        const entry = [...segments, seg(`k:${JSON.stringify(Object.fromEntries(keys.map((k) => [k, item[k] ?? null])))}`)];
        out.set([...entry, "."].join("/"), null);
        for (const [k, v] of Object.entries(item)) walk(v, `${dotted}[].${k}`, [...entry, seg(`f:${k}`)]);
      }
      return;
    }
    if (isObject(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) walk(v, dotted ? `${dotted}.${k}` : k, [...segments, seg(`f:${k}`)]);
      return;
    }
    out.set(segments.join("/"), value);
  };
  for (const root of roots) {
    const [first, second] = root.split(".");
    const value = second ? (isObject(body[first]) ? (body[first] as JsonObject)[second] : undefined) : body[first];
    if (value !== undefined)
      walk(
        value as Json,
        root,
        root.split(".").map((k) => `f:${k}`),
      );
  }
  return out;
}

interface Step {
  field?: string;
  key?: JsonObject;
}

function parse(path: string): Step[] {
  return path
    .split("/")
    .filter((s) => s !== ".")
    .map(unseg)
    .map((segment) => (segment.startsWith("k:") ? { key: JSON.parse(segment.slice(2)) as JsonObject } : { field: segment.slice(2) }));
}

const matches = (item: Json, key: JsonObject) => isObject(item) && Object.entries(key).every(([k, v]) => deepEqual(item[k] ?? null, v));

// Entries of list-type=map lists by key, per array: a report list with thousands of nodes would
// otherwise be scanned once per field applied.
const entryIndex = new WeakMap<Json[], Map<string, Map<string, JsonObject>>>();
const keyString = (item: JsonObject, fields: string[]) => JSON.stringify(fields.map((f) => item[f] ?? null));

function indexFor(list: Json[], fields: string[]): Map<string, JsonObject> {
  const signature = fields.join(",");
  let byFields = entryIndex.get(list);
  if (!byFields) entryIndex.set(list, (byFields = new Map()));
  let index = byFields.get(signature);
  if (!index) {
    index = new Map();
    for (const item of list) if (isObject(item)) index.set(keyString(item, fields), item);
    byFields.set(signature, index);
  }
  return index;
}

function findEntry(list: Json[], key: JsonObject): JsonObject | undefined {
  const found = indexFor(list, Object.keys(key)).get(keyString(key, Object.keys(key)));
  return found && matches(found, key) ? found : undefined;
}

export function getAt(root: JsonObject, path: string): Json | undefined {
  let at: Json | undefined = root;
  for (const step of parse(path)) {
    if (step.key) at = Array.isArray(at) ? findEntry(at, step.key) : undefined;
    else at = isObject(at) ? at[step.field!] : undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** Sets a leaf (or creates a list-map entry for a "." path), creating parents on the way. */
export function setAt(root: JsonObject, path: string, value: Json): void {
  const steps = parse(path);
  const isEntry = path.endsWith("/.");
  let at: Json = root;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const nextIsKey = Boolean(steps[i + 1]?.key);
    if (step.key) {
      const list = at as Json[];
      let item: JsonObject | undefined = findEntry(list, step.key);
      if (!item) {
        item = { ...step.key };
        list.push(item);
        for (const [signature, index] of entryIndex.get(list) ?? []) index.set(keyString(item, signature.split(",")), item);
      }
      at = item;
      return;
    }
    const obj = at as JsonObject;
    if (last && !isEntry) {
      obj[step.field!] = value;
      return;
    }
    if (obj[step.field!] === undefined || obj[step.field!] === null) obj[step.field!] = nextIsKey ? [] : {};
    at = obj[step.field!];
  });
}

/** Removes a leaf, or a whole list-map entry for a "." path. */
export function deleteAt(root: JsonObject, path: string): void {
  const steps = parse(path);
  let parent: Json = root;
  for (const step of steps.slice(0, -1)) {
    const next: Json | undefined = step.key
      ? Array.isArray(parent)
        ? findEntry(parent, step.key)
        : undefined
      : isObject(parent)
        ? parent[step.field!]
        : undefined;
    if (next === undefined) return;
    parent = next;
  }
  const last = steps[steps.length - 1];
  if (last.key && Array.isArray(parent)) {
    const index = parent.findIndex((x) => matches(x, last.key!));
    if (index >= 0) parent.splice(index, 1);
    entryIndex.get(parent)?.clear();
  } else if (last.field && isObject(parent)) delete parent[last.field];
}

/** FieldsV1 JSON for a set of paths, as metadata.managedFields shows it. */
export function fieldsV1(paths: Iterable<string>): JsonObject {
  const out: JsonObject = {};
  for (const path of paths) {
    let at = out;
    for (const segment of path.split("/").map(unseg)) {
      at[segment] ??= {};
      at = at[segment] as JsonObject;
    }
  }
  return out;
}

/** The API server's way of naming a field in a conflict: .status.conditions[type="X"].message */
export function describeField(path: string): string {
  return path
    .split("/")
    .filter((s) => s !== ".")
    .map(unseg)
    .map((segment) =>
      segment.startsWith("k:")
        ? `[${Object.entries(JSON.parse(segment.slice(2)) as JsonObject)
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(",")}]`
        : `.${segment.slice(2)}`,
    )
    .join("");
}
