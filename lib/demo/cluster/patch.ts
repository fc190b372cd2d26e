import { deepEqual, isObject, type Json, type JsonObject } from "./fields";
import { StoreError } from "./store";
import { mergeJson } from "./store-rules";

// The patch types besides server-side apply: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and
// strategic merge patch for the built-in kinds, with the patchMergeKeys of the lists they hold.

/** JSON merge patch (RFC 7386): the store applies the same merge for its own merge-patch writes. */
export const mergePatch = mergeJson;

// As the real server wraps a failed JSON patch: a generic 422 with the patch library's words as the cause.
const invalid = (message: string) =>
  new StoreError(422, "Invalid", "the server rejected our request due to an error in our request", {
    causes: [{ reason: "UnexpectedServerResponse", message }],
  });

/** RFC 6901 pointer tokens. */
function pointer(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw invalid(`the server rejected our request due to an error in our request`);
  return path
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function parentOf(doc: Json, tokens: string[], op: string): { parent: Json; key: string } {
  let at: Json = doc;
  for (const t of tokens.slice(0, -1)) {
    const next: Json | undefined = Array.isArray(at) ? at[Number(t)] : isObject(at) ? at[t] : undefined;
    if (next === undefined) throw invalid(`doc is missing path: "/${tokens.join("/")}": missing value`);
    at = next;
  }
  if (tokens.length === 0) throw invalid(`${op} operation does not apply: doc is missing path: ""`);
  return { parent: at, key: tokens[tokens.length - 1] };
}

function read(doc: Json, path: string): Json {
  let at: Json | undefined = doc;
  for (const t of pointer(path)) {
    at = Array.isArray(at) ? at[Number(t)] : isObject(at) ? at[t] : undefined;
    if (at === undefined) throw invalid(`doc is missing path: "${path}": missing value`);
  }
  return at;
}

function remove(doc: Json, path: string): Json {
  const { parent, key } = parentOf(doc, pointer(path), "remove");
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw invalid(`Unable to remove nonexistent key: ${key}: missing value`);
    return parent.splice(i, 1)[0];
  }
  if (!isObject(parent) || !(key in parent)) throw invalid(`Unable to remove nonexistent key: ${key}: missing value`);
  const value = parent[key];
  delete parent[key];
  return value;
}

function add(doc: Json, path: string, value: Json, replace: boolean): void {
  const { parent, key } = parentOf(doc, pointer(path), replace ? "replace" : "add");
  if (Array.isArray(parent)) {
    const i = key === "-" ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length - (replace ? 1 : 0)) throw invalid(`Unable to access invalid index: ${key}: invalid index`);
    parent.splice(i, replace ? 1 : 0, value);
    return;
  }
  if (!isObject(parent)) throw invalid(`doc is missing path: "${path}": missing value`);
  if (replace && !(key in parent)) throw invalid(`replace operation does not apply: doc is missing key: ${path}: missing value`);
  parent[key] = value;
}

/** RFC 6902: add, remove, replace, move, copy, test; a failed test or a missing path is a 422. */
export function jsonPatch(doc: JsonObject, ops: Json): JsonObject {
  if (!Array.isArray(ops)) throw new StoreError(400, "BadRequest", "json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  for (const raw of ops) {
    if (!isObject(raw) || typeof raw.op !== "string" || typeof raw.path !== "string")
      throw invalid("the server rejected our request due to an error in our request");
    const { op, path } = raw as { op: string; path: string };
    if (op === "add" || op === "replace") add(doc, path, structuredClone(raw.value ?? null), op === "replace");
    else if (op === "remove") remove(doc, path);
    else if (op === "move") add(doc, path, remove(doc, String(raw.from)), false);
    else if (op === "copy") add(doc, path, structuredClone(read(doc, String(raw.from))), false);
    else if (op === "test") {
      if (!deepEqual(read(doc, path), raw.value ?? null)) throw invalid(`testing value ${path} failed: test failed`);
    } else throw invalid(`Unexpected kind: ${op}`);
  }
  return doc;
}

/** patchMergeKey of the lists in the built-in kinds the simulator serves, by field name. */
const MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  ephemeralContainers: "name",
  env: "name",
  volumes: "name",
  volumeMounts: "mountPath",
  volumeDevices: "devicePath",
  ports: "containerPort",
  conditions: "type",
  addresses: "type",
  imagePullSecrets: "name",
  hostAliases: "ip",
  taints: "key",
  ownerReferences: "uid",
  // patchStrategy merge without a key: a set of primitives.
  finalizers: "",
  webhooks: "name",
};

/** Strategic merge patch, with the directives kubectl sends ($patch, $retainKeys, $setElementOrder, $deleteFromPrimitiveList). */
export function strategicMerge(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  if (patch.$patch === "replace") return stripDirectives(patch);
  if (patch.$patch === "delete") return null;
  const out: JsonObject = isObject(target) ? target : {};
  if (Array.isArray(patch.$retainKeys)) for (const k of Object.keys(out)) if (!(patch.$retainKeys as Json[]).includes(k)) delete out[k];
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith("$setElementOrder/") || k === "$retainKeys" || k === "$patch") continue;
    if (k.startsWith("$deleteFromPrimitiveList/")) {
      const name = k.slice("$deleteFromPrimitiveList/".length);
      if (Array.isArray(out[name]) && Array.isArray(v)) out[name] = (out[name] as Json[]).filter((x) => !v.some((d) => deepEqual(d, x)));
      continue;
    }
    if (v === null) delete out[k];
    else if (Array.isArray(v)) out[k] = mergeList(Array.isArray(out[k]) ? (out[k] as Json[]) : [], v, k);
    else if (isObject(v)) {
      const merged = strategicMerge(out[k] ?? null, v);
      if (merged === null) delete out[k];
      else out[k] = merged;
    } else out[k] = v;
  }
  return out;
}

function mergeList(current: Json[], patch: Json[], field: string): Json[] {
  const key = MERGE_KEYS[field];
  // Lists without a merge key are replaced whole, as the real server does for atomic lists.
  if (!key) {
    if (key === "" && patch.every((p) => !isObject(p))) return [...current.filter((c) => !patch.some((p) => deepEqual(p, c))), ...patch];
    return stripDirectives(patch) as Json[];
  }
  if (patch.some((p) => isObject(p) && p.$patch === "replace")) return stripDirectives(patch.filter((p) => !(isObject(p) && p.$patch === "replace"))) as Json[];
  const out = [...current];
  for (const item of patch) {
    if (!isObject(item)) continue;
    const index = out.findIndex((c) => isObject(c) && deepEqual(c[key], item[key]));
    if (item.$patch === "delete") {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    if (index >= 0) out[index] = strategicMerge(out[index], item);
    else out.push(stripDirectives(item));
  }
  return out;
}

function stripDirectives(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.startsWith("$"))
      .map(([k, v]) => [k, stripDirectives(v)]),
  );
}
