import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseYaml } from "yaml";
import { isObject, type Json, type JsonObject } from "./fields";
import { serveList } from "./list";
import { jsonPatch, mergePatch, strategicMerge } from "./patch";
import { boolParam, dryRunParam } from "./query";
import { findResource, type ResourceType } from "./resources";
import { sendJson, sendStatus } from "./status";
import { notFound, ObjectStore, StoreError } from "./store";
import { includeObjectOf, toTable, wantsTable } from "./table";
import { serveWatch } from "./watch";

// The Kubernetes API surface of the simulator for resources: GET, LIST, WATCH and PATCH (all four
// patch types). Discovery is in discovery.ts, selectors, paging, tables and watches beside it.

export interface KubeApiOptions {
  store: ObjectStore;
  /** How often an open watch that asked for bookmarks gets one. */
  bookmarkIntervalMs: number;
  minRequestTimeoutSeconds: number;
  /** Whether this caller may write (the read-only token may not). */
  canWrite: (req: IncomingMessage) => boolean;
  openWatches: Set<ServerResponse>;
  /** The bookmark senders of the open watches that asked for bookmarks. */
  bookmarkers: Set<() => void>;
  /** While true, open watches go silent (no events, no bookmarks), as a stalled watch does upstream. */
  stalled?: () => boolean;
  /** Whether a watch resuming from this resourceVersion must get 410 (the expire-on-resume fault). */
  expiresResume?: (resourceVersion: string) => boolean;
  now: () => Date;
}

export interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: "status";
}

/** /api/v1/namespaces/ns/pods/name/status, /apis/apps/v1/daemonsets, ... */
export function matchResourcePath(pathname: string): Route | undefined {
  const parts = pathname.split("/").filter(Boolean);
  let group = "";
  let rest: string[];
  if (parts[0] === "api" && parts[1] === "v1") rest = parts.slice(2);
  else if (parts[0] === "apis" && parts.length >= 3) {
    group = parts[1];
    rest = parts.slice(3);
  } else return undefined;
  const version = parts[0] === "api" ? "v1" : parts[2];
  if (rest.length === 0) return undefined;
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length >= 3) {
    namespace = decodeURIComponent(rest[1]);
    rest = rest.slice(2);
  }
  const type = findResource(group, version, rest[0]);
  if (!type) return undefined;
  if (rest.length > 3 || (rest[2] !== undefined && rest[2] !== "status")) return undefined;
  return { type, namespace, name: rest[1] === undefined ? undefined : decodeURIComponent(rest[1]), subresource: rest[2] === "status" ? "status" : undefined };
}

const PATCH_TYPES = ["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"];

export async function serveResource(route: Route, req: IncomingMessage, res: ServerResponse, url: URL, opts: KubeApiOptions): Promise<void> {
  try {
    await serve(route, req, res, url, opts);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    if (res.headersSent) return void res.end();
    sendStoreError(res, error);
  }
}

async function serve(route: Route, req: IncomingMessage, res: ServerResponse, url: URL, opts: KubeApiOptions): Promise<void> {
  const { store } = opts;
  const { type, namespace, name } = route;
  const method = req.method ?? "GET";
  if (method === "GET" && boolParam(url, "watch")) {
    return serveWatch(type, namespace, name, req, res, url, { ...opts });
  }
  if (method === "GET" && !name) return serveList(type, namespace, req, res, url, store, opts.now());
  if (method === "GET" && name) {
    const object = store.get(type, namespace, name);
    if (!object) throw notFound(type, name);
    const table = wantsTable(req);
    if (table)
      return sendJson(
        res,
        200,
        toTable(
          type,
          [object],
          { resourceVersion: (object.metadata as JsonObject).resourceVersion },
          { version: table, includeObject: includeObjectOf(url), now: opts.now() },
        ),
      );
    return sendJson(res, 200, object);
  }
  if (method === "PATCH" && name) {
    if (!opts.canWrite(req)) {
      const what = `${type.plural}${type.group ? `.${type.group}` : ""}`;
      throw new StoreError(
        403,
        "Forbidden",
        `${what} "${name}" is forbidden: User "system:serviceaccount:faultline:faultline-readonly" cannot patch resource "${type.plural}${route.subresource ? "/status" : ""}" in API group "${type.group}"${type.namespaced ? ` in the namespace "${namespace}"` : " at the cluster scope"}`,
        { name, group: type.group, kind: type.plural },
      );
    }
    return servePatch(route, req, res, url, store);
  }
  if (method === "GET" || method === "PATCH") throw new StoreError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  throw new StoreError(405, "MethodNotAllowed", `the server does not allow this method on the requested resource`);
}

async function servePatch(route: Route, req: IncomingMessage, res: ServerResponse, url: URL, store: ObjectStore): Promise<void> {
  const { type, namespace, name } = route as Required<Pick<Route, "type" | "name">> & Route;
  const contentType = (req.headers["content-type"] ?? "").split(";")[0].trim();
  const builtIn = !type.group.includes(".") || type.group.endsWith(".k8s.io");
  const accepted = PATCH_TYPES.filter((t) => builtIn || t !== "application/strategic-merge-patch+json");
  if (!accepted.includes(contentType)) {
    throw new StoreError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    );
  }
  const dryRun = dryRunParam(url);
  const force = boolParam(url, "force");
  const manager = url.searchParams.get("fieldManager") ?? undefined;
  if (manager !== undefined && manager.length > 128)
    throw new StoreError(422, "Invalid", `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`);
  if (force && contentType !== "application/apply-patch+yaml")
    throw new StoreError(422, "Invalid", `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`);
  const text = await readBody(req);
  let body: Json;
  try {
    body = (contentType === "application/apply-patch+yaml" ? parseYaml(text) : JSON.parse(text)) as Json;
  } catch (error) {
    throw new StoreError(400, "BadRequest", `error decoding patch: ${(error as Error).message.split("\n")[0]}`);
  }
  if (contentType === "application/apply-patch+yaml") {
    if (!manager) throw new StoreError(422, "Invalid", 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    if (!isObject(body)) throw new StoreError(400, "BadRequest", "error decoding patch: the body of an apply patch must be an object");
    return sendJson(res, 200, store.apply(type, namespace, name, body, { manager, force, subresource: route.subresource, dryRun }));
  }
  if (contentType !== "application/json-patch+json" && !isObject(body))
    throw new StoreError(400, "BadRequest", "error decoding patch: the body must be a JSON object");
  const change =
    contentType === "application/json-patch+json"
      ? (o: JsonObject) => jsonPatch(o, body)
      : contentType === "application/merge-patch+json"
        ? (o: JsonObject) => mergePatch(o, body) as JsonObject
        : (o: JsonObject) => strategicMerge(o, body) as JsonObject;
  // Without a fieldManager, the real server names the manager after the client's user agent.
  const userAgent = String(req.headers["user-agent"] ?? "unknown").split("/")[0] || "unknown";
  sendJson(res, 200, store.patch(type, namespace, name, change, { manager: manager ?? userAgent, subresource: route.subresource, dryRun }));
}

export function sendStoreError(res: ServerResponse, error: StoreError): void {
  sendStatus(res, error.code, error.reason, error.message, error.details);
}

function readBody(req: IncomingMessage, limit = 3 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) reject(new StoreError(413, "RequestEntityTooLarge", "request entity too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
