import { loadEnv, type Env } from "@/lib/env";
import { countAuditRefusals } from "@/lib/metrics";
import { processSlot } from "@/lib/process-slot";
import { ANONYMOUS, LOCAL, proxyIdentity, recordedAs, type HeaderSource } from "./principal";
import { cookieValue, SESSION_COOKIE, sessionKey } from "./session-cookie";

// Refused requests on their way to the audit log (docs/auth.md, "The audit log"). The edge and the gate note each
// refusal here, in memory and at once: the refusal is answered without waiting on the database, and a flood of
// forged requests costs a count, not a row each. audit.ts writes what a window gathered every WINDOW_MS: refusals
// alike (who, role, method, route, action, object, address, status, reason) as one row with how many and the first
// and last time; at most ITEMISED distinct ones per window, the rest as one row per status that counts them.
// No database here: the edge runs before Next.js, in a module graph without server-only code.

export interface Refusal {
  actor: string;
  /** Their role; "none" (identified, no role) or "anonymous" (nobody identified). */
  role: string;
  /** The key of an OIDC session the edge saw: whose it is is looked up when the row is written, off the request path. */
  session?: string;
  method: string;
  route: string;
  action: string;
  objectType?: string;
  objectId?: string;
  remote?: string;
  status: number;
  /** What makes two refusals alike besides the rest: the edge's check, the gate's refusal. */
  reason: string;
  /** Why, as answered; a gathered row keeps its first refusal's. */
  detail?: string;
}

export interface Gathered extends Refusal {
  count: number;
  first: Date;
  last: Date;
}

/** How often gathered refusals are written (audit.ts), and so how long a refusal waits to be seen at /audit. */
export const WINDOW_MS = 5_000;
/** Distinct refusals itemised per window; the others are counted in one row per status. */
export const ITEMISED = 50;
/** The reason of the row that counts refusals past ITEMISED. */
export const UNITEMISED = "unitemised";
/** The header the edge stamps on what it hands to Next.js: "GET /incidents/[id]", for a page's refusal (page.ts). */
export const ROUTE_HEADER = "x-faultline-route";

interface Window {
  items: Map<string, Gathered>;
  overflow: Map<number, Gathered>;
}

const pending = processSlot<Window>("audit.refusals");
const gathering = () => pending.getOrCreate(() => ({ items: new Map(), overflow: new Map() }));

const keyOf = (r: Refusal) => JSON.stringify([r.actor, r.role, r.session, r.method, r.route, r.action, r.objectType, r.objectId, r.remote, r.status, r.reason]);

function merge(into: Gathered, g: Gathered): void {
  into.count += g.count;
  if (g.first < into.first) into.first = g.first;
  if (g.last > into.last) into.last = g.last;
}

function add(w: Window, g: Gathered): void {
  const key = keyOf(g);
  const held = w.items.get(key);
  if (held) return merge(held, g);
  if (g.reason !== UNITEMISED && w.items.size < ITEMISED) return void w.items.set(key, { ...g });
  const over = w.overflow.get(g.status);
  if (over) return merge(over, g);
  w.overflow.set(g.status, {
    actor: "(various)",
    role: "(various)",
    method: "*",
    route: "*",
    action: "audit.unitemised",
    status: g.status,
    reason: UNITEMISED,
    count: g.count,
    first: g.first,
    last: g.last,
  });
}

/** Notes one refused request: no I/O, constant memory whatever arrives. */
export function noteRefusal(r: Refusal, at = new Date()): void {
  add(gathering(), { ...r, count: 1, first: at, last: at });
  countAuditRefusals("noted");
}

/** What the window gathered, and a new window. */
export function takeRefusals(): Gathered[] {
  const w = gathering();
  const rows = [...w.items.values(), ...w.overflow.values()];
  w.items = new Map();
  w.overflow = new Map();
  for (const row of rows)
    if (row.reason === UNITEMISED)
      row.detail = `${row.count} refusals with status ${row.status} past the ${ITEMISED} distinct ones itemised in this window (other people, addresses, routes or reasons)`;
  return rows;
}

/** Puts back rows that could not be written, into the window now gathering (still bounded). */
export function restoreRefusals(rows: Gathered[]): void {
  const w = gathering();
  for (const row of rows) add(w, row);
}

/** Who a request says it is, from its headers alone: the edge answers before anyone is identified. */
export function claimedBy(headers: HeaderSource, peer: string | undefined, env: Env = loadEnv()): Pick<Refusal, "actor" | "role" | "session"> {
  if (env.FAULTLINE_AUTH === "none") return { actor: LOCAL.user, role: LOCAL.role };
  if (env.FAULTLINE_AUTH === "proxy") return recordedAs(proxyIdentity(headers, peer, env));
  const session = sessionKey(cookieValue(headers, SESSION_COOKIE) ?? "");
  return { actor: "(unknown)", role: ANONYMOUS, ...(session ? { session } : {}) };
}
