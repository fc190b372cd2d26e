import "server-only";
import { z } from "zod";
import { NotFound } from "@/lib/errors";
import { decodeCursor } from "@/lib/signals/health-view";
import { MATRIX_SERVERS, MAX_PAGE, matrixOf, nodeHealth, pageRows, ROW_FILTERS } from "@/lib/signals/health-rows";
import { getClusterHealth, getVersionedHealth, getVersionedView, listMonitoredNames, rowsOf } from "@/lib/live/registry";

// GET /api/v1/clusters/{name}/health in its views: the whole document (no `view`), the summary the page shows
// first (`view=summary`), a matrix's rows by page (`view=rows`), and one node (.../health/nodes/{node}).

const ROWS_KEYS = ["view", "server", "state", "cursor", "limit"];

/** The URL's search parameters, strictly: one value each, only the parameters of the view asked for. */
export const HealthQuery = z.instanceof(URLSearchParams).transform((params, ctx) => {
  const fail = (path: string, message: string) => {
    ctx.addIssue({ code: "custom", message, path: [path] });
    return z.NEVER;
  };
  for (const key of new Set(params.keys())) if (params.getAll(key).length > 1) return fail(key, "give it once");
  const view = params.get("view") ?? "whole";
  if (view !== "whole" && view !== "summary" && view !== "rows") return fail("view", 'expected "whole" (the default), "summary" or "rows"');
  const allowed = view === "rows" ? ROWS_KEYS : ["view"];
  for (const key of params.keys()) if (!allowed.includes(key)) return fail(key, view === "rows" ? "unknown parameter" : `only with view=rows`);
  if (view !== "rows") return { view } as const;
  const server = params.get("server") ?? "kube-apiserver";
  if (!(MATRIX_SERVERS as readonly string[]).includes(server)) return fail("server", `expected one of ${MATRIX_SERVERS.join(", ")}`);
  const state = params.get("state") ?? "all";
  if (!(ROW_FILTERS as readonly string[]).includes(state)) return fail("state", `expected one of ${ROW_FILTERS.join(", ")}`);
  const limitText = params.get("limit") ?? "100";
  if (!/^[0-9]{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_PAGE)
    return fail("limit", `expected a whole number from 1 to ${MAX_PAGE}`);
  const cursorText = params.get("cursor");
  const cursor = cursorText === null ? undefined : decodeCursor(cursorText);
  if (cursorText !== null && !cursor) return fail("cursor", "not a cursor this API gave (use nextCursor of the previous page)");
  return {
    view,
    server: server as (typeof MATRIX_SERVERS)[number],
    state: state as (typeof ROW_FILTERS)[number],
    limit: Number(limitText),
    cursor,
  } as const;
});
export type HealthQuery = z.infer<typeof HealthQuery>;

const NOT_READ = { state: "unknown", line: "not read yet" } as const;

function known(name: string): void {
  if (!listMonitoredNames().includes(name)) throw new NotFound(`no cluster named "${name}"`, { extra: { name, clusters: listMonitoredNames() } });
}

// The whole document of 5,000 nodes is 6.5 MB of JSON: written once per health the monitor publishes (every
// poll), not once per request. A health is replaced, never changed, so its identity keys its text.
const written = new WeakMap<object, { version: number; whole?: string; summary?: string }>();
function writtenOnce(name: string, view: "whole" | "summary"): string | undefined {
  const current = getClusterHealth(name);
  const versioned = view === "whole" ? getVersionedHealth(name) : getVersionedView(name);
  if (!current || !versioned) return undefined;
  let kept = written.get(current);
  if (kept?.version !== versioned.version) written.set(current, (kept = { version: versioned.version }));
  return (kept[view] ??= JSON.stringify(versioned));
}

/** The view asked for, with the version of the last push; `pending` until the cluster is read once. */
export function readHealthView(name: string, query: HealthQuery) {
  known(name);
  if (query.view === "whole" || query.view === "summary") {
    const text = writtenOnce(name, query.view);
    return text === undefined ? { pending: { name, summary: NOT_READ } } : { text };
  }
  const rows = query as Extract<HealthQuery, { view: "rows" }>;
  const health = getVersionedHealth(name);
  if (!health) return { pending: { name, summary: NOT_READ } };
  const matrix = matrixOf(health, rows.server);
  if (!matrix) throw new NotFound(`cluster "${name}" has no ${rows.server} matrix (its CR carries no KMS reports)`, { extra: { server: rows.server } });
  return { health: { cluster: name, version: health.version, checkedAt: health.checkedAt, ...pageRows(rowsOf(matrix), rows) } };
}

/**
 * The summary's or the whole document's text as written for the latest health, for the edge's hot read; undefined
 * for anything else (another view, a cluster not watched, one not read yet), which the route answers.
 */
export function readHealthText(name: string, query: HealthQuery): string | undefined {
  if (query.view !== "whole" && query.view !== "summary") return undefined;
  if (!listMonitoredNames().includes(name)) return undefined;
  return writtenOnce(name, query.view);
}

/** One node in every matrix that has a row for it, with its signals. */
export function readHealthNode(name: string, node: string) {
  known(name);
  const health = getVersionedHealth(name);
  if (!health) return { pending: { name, summary: NOT_READ } };
  const found = nodeHealth(health, node, rowsOf);
  if (!found) throw new NotFound(`no node "${node}" in any KMS matrix of cluster "${name}"`, { extra: { node } });
  return { health: { cluster: name, version: health.version, checkedAt: health.checkedAt, ...found } };
}
