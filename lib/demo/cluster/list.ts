import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonObject } from "./fields";
import { intParam } from "./query";
import { apiVersionOf, type ResourceType } from "./resources";
import { selectorsOf } from "./selectors";
import { sendJson } from "./status";
import { StoreError, type ObjectStore } from "./store";
import { includeObjectOf, toTable, wantsTable } from "./table";

// LIST: selectors, limit/continue paging and Table output, in etcd's key order (namespace, then name).

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

const keyOf = (o: JsonObject) => {
  const meta = o.metadata as JsonObject;
  return meta.namespace ? `${meta.namespace as string}/${meta.name as string}` : (meta.name as string);
};

export const encodeContinue = (rv: number, after: string) =>
  Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv, start: `${after}\u0000` })).toString("base64url");

function decodeContinue(text: string): ContinueToken {
  try {
    const token = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as ContinueToken;
    if (token.v !== "meta.k8s.io/v1" || !Number.isInteger(token.rv) || typeof token.start !== "string") throw new Error("bad token");
    return token;
  } catch {
    throw new StoreError(400, "BadRequest", "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
}

export function serveList(
  type: ResourceType,
  namespace: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  store: ObjectStore,
  now: Date,
): void {
  const matches = selectorsOf(url, type);
  const limit = intParam(url, "limit");
  const table = wantsTable(req);
  const includeObject = table ? includeObjectOf(url) : "Object";
  const cont = url.searchParams.get("continue");
  let listRv = Number(store.resourceVersion);
  let items = store
    .list(type, namespace)
    .items.filter(matches)
    .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  if (cont) {
    const token = decodeContinue(cont);
    if (!store.stillRemembers(token.rv)) {
      throw new StoreError(
        410,
        "Expired",
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
      );
    }
    listRv = token.rv;
    const after = token.start.replace(/\u0000$/, "");
    items = items.filter((o) => keyOf(o) > after);
  }
  const metadata: JsonObject = { resourceVersion: String(listRv) };
  if (limit !== undefined && limit > 0 && items.length > limit) {
    const remaining = items.length - limit;
    items = items.slice(0, limit);
    metadata.continue = encodeContinue(listRv, keyOf(items[items.length - 1]));
    // The real server counts what is left only when no selector filters the list.
    if (!url.searchParams.get("labelSelector") && !url.searchParams.get("fieldSelector")) metadata.remainingItemCount = remaining;
  }
  if (table) return sendJson(res, 200, toTable(type, items, metadata, { version: table, includeObject, now }));
  sendJson(res, 200, { kind: `${type.kind}List`, apiVersion: apiVersionOf(type), metadata, items });
}
