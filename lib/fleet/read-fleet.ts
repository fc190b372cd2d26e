import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import { getVersionedView, listMonitoredNames } from "@/lib/live/registry";
import { fleetRowOf, sortFleet, worstOf, type FleetRow } from "./fleet-row";
import { labelsOf } from "./labels";
import { readFleetIncidents, readStateSince, type SinceAsked } from "./stored";

// The fleet's rows now: each cluster's latest health from memory (lib/live/registry.ts), its incidents and the
// start of its state from PostgreSQL. A store that cannot be read costs the rows their incidents, not the page.

/** A store slower than this is taken as down for this read: the page and the pushes never wait on a hung connection. */
const STORE_TIMEOUT_MS = 5_000;

/** A reading older than this is stale: five polls missed, and never under 30 s (a round may wait 5 s on a probe). */
export function staleAfterMs(pollSeconds = loadEnv().FAULTLINE_POLL_SECONDS): number {
  return Math.max(30_000, pollSeconds * 5_000);
}

export interface FleetRead {
  /** Worst first. */
  rows: FleetRow[];
  /** Why the incident store could not be read; the rows then have no incidents and no stored start. */
  storeDown?: string;
}

/** The rows of `names` (every watched cluster when omitted); `previous` rows keep the start of a state they already had. */
export async function readFleet(opts: { names?: string[]; previous?: ReadonlyMap<string, FleetRow>; now?: number } = {}): Promise<FleetRead> {
  const names = opts.names ?? listMonitoredNames();
  const now = opts.now ?? Date.now();
  const views = new Map(names.map((name) => [name, getVersionedView(name)]));
  const asked: SinceAsked[] = [];
  const ok: string[] = [];
  for (const [cluster, view] of views) {
    if (!view) continue;
    const state = worstOf(view);
    if (state === "ok") ok.push(cluster);
    else asked.push({ cluster, state, signals: view.signals.filter((s) => s.state === state).map((s) => ({ id: s.id, subject: s.subject })) });
  }
  let stored: { incidents: Awaited<ReturnType<typeof readFleetIncidents>>; since: Awaited<ReturnType<typeof readStateSince>> } | undefined;
  let storeDown: string | undefined;
  try {
    const db = getDb();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the incident store did not answer within ${STORE_TIMEOUT_MS / 1000} s`)), STORE_TIMEOUT_MS);
    });
    const [incidents, since] = await Promise.race([Promise.all([readFleetIncidents(db, names), readStateSince(db, asked, ok)]), timeout]).finally(() =>
      clearTimeout(timer),
    );
    stored = { incidents, since };
  } catch (error) {
    // The driver's message ends with the reason an on-call can act on ("Can't reach database server at ...").
    storeDown = error instanceof Error ? (error.message.split("\n").filter(Boolean).pop() ?? error.name) : String(error);
  }
  const staleAfter = staleAfterMs();
  const rows = names.map((name) =>
    fleetRowOf({
      name,
      view: views.get(name),
      labels: labelsOf(name),
      now,
      staleAfterMs: staleAfter,
      since: stored ? (stored.since.get(name) ?? {}) : undefined,
      incidents: stored?.incidents.get(name) ?? null,
      previous: opts.previous?.get(name),
    }),
  );
  return { rows: sortFleet(rows), ...(storeDown ? { storeDown } : {}) };
}
