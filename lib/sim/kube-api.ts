import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseYaml } from "yaml";
import { isObject, type JsonObject } from "./fields";
import { apiVersionOf, findResource, RESOURCES, type ResourceType } from "./resources";
import { sendJson, sendStatus, statusBody } from "./status";
import { notFound, ObjectStore, StoreError, type StoredEvent } from "./store";

// The Kubernetes API surface of the simulator: discovery, GET, LIST, WATCH and PATCH.

export interface KubeApiOptions {
  store: ObjectStore;
  /** How often an open watch that asked for bookmarks gets one. */
  bookmarkIntervalMs: number;
  /** Whether this caller may write (the read-only token may not). */
  canWrite: (req: IncomingMessage) => boolean;
  serverAddress: () => string;
  openWatches: Set<ServerResponse>;
  /** While true, open watches go silent (no events, no bookmarks), as a stalled watch does upstream. */
  stalled?: () => boolean;
  /** Whether a watch resuming from this resourceVersion must get 410 (the expire-on-resume fault). */
  expiresResume?: (resourceVersion: string) => boolean;
}

interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: "status";
}

/** /api/v1/namespaces/ns/pods/name/status, /apis/apps/v1/daemonsets, ... */
export function matchResourcePath(pathname: string): Route | undefined | "discovery" {
  const parts = pathname.split("/").filter(Boolean);
  let group = "";
  let rest: string[];
  if (parts[0] === "api" && parts[1] === "v1") rest = parts.slice(2);
  else if (parts[0] === "apis" && parts.length >= 3) {
    group = parts[1];
    rest = parts.slice(3);
  } else return undefined;
  const version = parts[0] === "api" ? "v1" : parts[2];
  if (rest.length === 0) return "discovery";
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const type = findResource(group, version, rest[0]);
  if (!type) return undefined;
  if (rest.length > 3 || (rest[2] !== undefined && rest[2] !== "status")) return undefined;
  return { type, namespace, name: rest[1], subresource: rest[2] === "status" ? "status" : undefined };
}

export function serveDiscovery(pathname: string, res: ServerResponse, serverAddress: string): boolean {
  if (pathname === "/api") {
    sendJson(res, 200, { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] });
    return true;
  }
  if (pathname === "/apis") {
    const groups = [...new Set(RESOURCES.filter((r) => r.group).map((r) => r.group))].map((name) => {
      const versions = [...new Set(RESOURCES.filter((r) => r.group === name).map((r) => r.version))].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
      return { name, versions, preferredVersion: versions[0] };
    });
    sendJson(res, 200, { kind: "APIGroupList", apiVersion: "v1", groups });
    return true;
  }
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/?$/.exec(pathname);
  if (!m) return false;
  const [group, version] = m[1] ? ["", "v1"] : [m[2], m[3]];
  const types = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (types.length === 0) return false;
  const resources = types.flatMap((t) => [
    { name: t.plural, singularName: t.kind.toLowerCase(), namespaced: t.namespaced, kind: t.kind, verbs: t.verbs },
    ...(t.verbs.includes("patch") ? [{ name: `${t.plural}/status`, singularName: "", namespaced: t.namespaced, kind: t.kind, verbs: ["get", "patch", "update"] }] : []),
  ]);
  sendJson(res, 200, { kind: "APIResourceList", apiVersion: "v1", groupVersion: group ? `${group}/${version}` : "v1", resources });
  return true;
}

function fieldSelectorName(selector: string | null): string | undefined {
  const m = selector ? /(?:^|,)metadata\.name=([^,]+)/.exec(selector) : null;
  return m ? decodeURIComponent(m[1]) : undefined;
}

export async function serveResource(route: Route, req: IncomingMessage, res: ServerResponse, url: URL, opts: KubeApiOptions): Promise<void> {
  const { store } = opts;
  const { type, namespace, name } = route;
  const method = req.method ?? "GET";
  if (method === "GET" && (url.searchParams.get("watch") === "1" || url.searchParams.get("watch") === "true")) {
    return serveWatch(route, req, res, url, opts);
  }
  if (method === "GET" && !name) {
    const { items, resourceVersion } = store.list(type, namespace);
    const only = fieldSelectorName(url.searchParams.get("fieldSelector"));
    sendJson(res, 200, {
      kind: `${type.kind}List`,
      apiVersion: apiVersionOf(type),
      metadata: { resourceVersion },
      items: only ? items.filter((o) => (o.metadata as JsonObject).name === only) : items,
    });
    return;
  }
  if (method === "GET" && name) {
    const object = store.get(type, namespace, name);
    if (!object) return sendStoreError(res, notFound(type, name));
    sendJson(res, 200, object);
    return;
  }
  if (method === "PATCH" && name) {
    if (!opts.canWrite(req)) {
      sendStatus(res, 403, "Forbidden", `${type.plural}${type.group ? `.${type.group}` : ""} "${name}" is forbidden: User "system:serviceaccount:faultline:faultline-readonly" cannot patch resource "${type.plural}${route.subresource ? "/status" : ""}" in API group "${type.group}"`, { name, group: type.group, kind: type.plural });
      return;
    }
    const contentType = (req.headers["content-type"] ?? "").split(";")[0].trim();
    const text = await readBody(req);
    try {
      if (contentType === "application/apply-patch+yaml") {
        const manager = url.searchParams.get("fieldManager");
        if (!manager) return sendStatus(res, 400, "BadRequest", "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
        const body = parseYaml(text) as unknown;
        if (!isObject(body)) return sendStatus(res, 400, "BadRequest", "the body of an apply patch must be an object");
        const force = url.searchParams.get("force") === "true";
        sendJson(res, 200, store.apply(type, namespace, name, body, { manager, force, subresource: route.subresource }));
      } else if (contentType === "application/merge-patch+json") {
        const body = JSON.parse(text) as unknown;
        if (!isObject(body)) return sendStatus(res, 400, "BadRequest", "the body of a merge patch must be an object");
        sendJson(res, 200, store.mergePatch(type, namespace, name, body, url.searchParams.get("fieldManager") ?? "unknown"));
      } else {
        sendStatus(res, 415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: application/merge-patch+json, application/apply-patch+yaml`);
      }
    } catch (error) {
      if (error instanceof StoreError) return sendStoreError(res, error);
      if (error instanceof SyntaxError || (error as Error).name === "YAMLParseError") return sendStatus(res, 400, "BadRequest", `error decoding patch: ${(error as Error).message.split("\n")[0]}`);
      throw error;
    }
    return;
  }
  sendStatus(res, 405, "MethodNotAllowed", `the server does not allow this method on the requested resource`);
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

function serveWatch(route: Route, req: IncomingMessage, res: ServerResponse, url: URL, opts: KubeApiOptions): void {
  const { store } = opts;
  const { type, namespace } = route;
  const name = route.name ?? fieldSelectorName(url.searchParams.get("fieldSelector"));
  const bookmarks = url.searchParams.get("allowWatchBookmarks") === "true";
  const initial = url.searchParams.get("sendInitialEvents") === "true";
  const rvParam = url.searchParams.get("resourceVersion") ?? "";
  const timeout = Number(url.searchParams.get("timeoutSeconds") ?? "0");
  const matches = (object: JsonObject) => {
    const meta = object.metadata as JsonObject;
    return (!namespace || meta.namespace === namespace) && (!name || meta.name === name);
  };

  res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked", "Cache-Control": "no-cache, private" });
  res.flushHeaders();
  const write = (event: unknown) => {
    if (!opts.stalled?.()) res.write(`${JSON.stringify(event)}\n`);
  };
  const bookmark = (extra?: JsonObject) =>
    write({ type: "BOOKMARK", object: { kind: type.kind, apiVersion: apiVersionOf(type), metadata: { resourceVersion: store.resourceVersion, ...(extra ?? {}) } } });

  let backlog: StoredEvent[] = [];
  if (initial || rvParam === "" || rvParam === "0") {
    for (const object of store.list(type, namespace).items) if (matches(object)) write({ type: "ADDED", object });
    if (initial && bookmarks) bookmark({ annotations: { "k8s.io/initial-events-end": "true" } });
  } else {
    const since = Number(rvParam);
    try {
      if (!Number.isInteger(since)) throw new StoreError(400, "BadRequest", `resourceVersion ${rvParam} is not a number`);
      if (opts.expiresResume?.(rvParam)) throw new StoreError(410, "Expired", `too old resource version: ${since} (${store.resourceVersion})`);
      backlog = store.eventsSince(type, since);
    } catch (error) {
      const e = error as StoreError;
      write({ type: "ERROR", object: statusBody(e.code, e.reason, e.message) });
      res.end();
      return;
    }
  }
  for (const event of backlog) if (matches(event.object)) write({ type: event.type, object: event.object });

  opts.openWatches.add(res);
  const key = `${type.group}/${type.version}/${type.plural}`;
  const unsubscribe = store.subscribe((event) => {
    if (event.resource === key && matches(event.object)) write({ type: event.type, object: event.object });
  });
  const ticker = bookmarks ? setInterval(() => bookmark(), opts.bookmarkIntervalMs) : undefined;
  const timer = timeout > 0 ? setTimeout(() => res.end(), timeout * 1000) : undefined;
  const close = () => {
    unsubscribe();
    if (ticker) clearInterval(ticker);
    if (timer) clearTimeout(timer);
    opts.openWatches.delete(res);
  };
  req.on("close", close);
  res.on("close", close);
}
