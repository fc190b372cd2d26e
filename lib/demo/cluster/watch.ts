import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonObject } from "./fields";
import { boolParam, intParam } from "./query";
import { apiVersionOf, type ResourceType } from "./resources";
import { selectorsOf, type Matcher } from "./selectors";
import { statusBody } from "./status";
import { StoreError, type ObjectStore, type StoredEvent } from "./store";
import { includeObjectOf, toTable, wantsTable } from "./table";

// WATCH as the real server streams it: initial events, resume from a resourceVersion (410 when the
// history no longer reaches), selectors that turn changes into ADDED/DELETED as objects enter or
// leave them, bookmarks about once a minute, Table rows for kubectl, and the server's own timeout.

export interface WatchOptions {
  store: ObjectStore;
  bookmarkIntervalMs: number;
  /** --min-request-timeout: a watch without timeoutSeconds ends after a random time between this and twice it. */
  minRequestTimeoutSeconds: number;
  openWatches: Set<ServerResponse>;
  /** The bookmark senders of the open watches that asked for bookmarks (DemoServer.bookmarkNow). */
  bookmarkers: Set<() => void>;
  stalled?: () => boolean;
  expiresResume?: (resourceVersion: string) => boolean;
  now: () => Date;
}

export function serveWatch(
  type: ResourceType,
  namespace: string | undefined,
  name: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  opts: WatchOptions,
): void {
  const { store } = opts;
  const selected = selectorsOf(url, type);
  const bookmarks = boolParam(url, "allowWatchBookmarks");
  const initial = boolParam(url, "sendInitialEvents");
  const rvParam = url.searchParams.get("resourceVersion") ?? "";
  const timeoutParam = intParam(url, "timeoutSeconds");
  const table = wantsTable(req);
  const includeObject = table ? includeObjectOf(url) : "Object";
  const matches: Matcher = (object) => {
    const meta = object.metadata as JsonObject;
    return (!namespace || meta.namespace === namespace) && (!name || meta.name === name) && selected(object);
  };
  let since = 0;
  if (!(initial || rvParam === "" || rvParam === "0")) {
    since = Number(rvParam);
    if (!Number.isInteger(since)) throw new StoreError(400, "BadRequest", `resourceVersion: Invalid value: "${rvParam}": must be a valid resource version`);
  }

  res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked", "Cache-Control": "no-cache, private" });
  res.flushHeaders();
  let first = true;
  const render = (object: JsonObject) => {
    if (!table) return object;
    const t = toTable(
      type,
      [object],
      { resourceVersion: (object.metadata as JsonObject).resourceVersion ?? "" },
      { version: table, includeObject, now: opts.now(), headers: first },
    );
    first = false;
    return t;
  };
  const write = (type: string, object: JsonObject) => {
    // A bookmark tick or a store event may come between the end of the answer and its close: nothing is written then.
    if (res.writableEnded || res.destroyed) return;
    if (!opts.stalled?.()) res.write(`${JSON.stringify({ type, object: type === "ERROR" || type === "BOOKMARK" ? object : render(object) })}\n`);
  };
  const bookmark = (extra?: JsonObject) =>
    write("BOOKMARK", { kind: type.kind, apiVersion: apiVersionOf(type), metadata: { resourceVersion: store.resourceVersion, ...(extra ?? {}) } });
  const fail = (e: StoreError) => {
    write("ERROR", statusBody(e.code, e.reason, e.message));
    res.end();
  };

  let backlog: StoredEvent[] = [];
  if (since === 0) {
    for (const object of store.list(type, namespace).items) if (matches(object)) write("ADDED", object);
    if (initial && bookmarks) bookmark({ annotations: { "k8s.io/initial-events-end": "true" } });
  } else {
    if (opts.expiresResume?.(rvParam)) return fail(new StoreError(410, "Expired", `too old resource version: ${since} (${store.resourceVersion})`));
    try {
      backlog = store.eventsSince(type, since);
    } catch (error) {
      if (error instanceof StoreError) return fail(error);
      throw error;
    }
  }
  const deliver = (event: StoredEvent) => {
    const now = matches(event.object);
    const before = event.type === "MODIFIED" && event.previous ? matches(event.previous) : now;
    if (event.type === "MODIFIED" && now !== before) write(now ? "ADDED" : "DELETED", event.object);
    else if (now) write(event.type, event.object);
  };
  backlog.forEach(deliver);

  opts.openWatches.add(res);
  const key = `${type.group}/${type.version}/${type.plural}`;
  const unsubscribe = store.subscribe((event) => {
    if (event.resource === key) deliver(event);
  });
  const ticker = bookmarks ? setInterval(() => bookmark(), opts.bookmarkIntervalMs) : undefined;
  const bookmarkNow = () => bookmark();
  if (bookmarks) opts.bookmarkers.add(bookmarkNow);
  // The real server: the client's timeoutSeconds, else a random time in [minRequestTimeout, 2 x minRequestTimeout).
  const min = opts.minRequestTimeoutSeconds;
  const timeoutSeconds = timeoutParam !== undefined && timeoutParam > 0 ? timeoutParam : min * (1 + Math.random());
  const timer = setTimeout(() => res.end(), timeoutSeconds * 1000);
  const close = () => {
    unsubscribe();
    if (ticker) clearInterval(ticker);
    clearTimeout(timer);
    opts.openWatches.delete(res);
    opts.bookmarkers.delete(bookmarkNow);
  };
  req.on("close", close);
  res.on("close", close);
  res.on("finish", close);
}
