import { announceIncidents, onIncidents } from "@/lib/live/bus";
import type { Signal } from "@/lib/signals/signal-model";
import type { CommittedRound } from "@/lib/store/persist";
import type { Refusal } from "@/lib/text/refusal";
import { applyRoundWithQuiet, sweepIncidents, type RoundOutcome } from "./apply-round";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import type { Db } from "../tx";

// The incidents' end of a monitor round: judge what the store committed, resolve alert-only incidents of
// clusters no monitor reads about once a minute, and tell open pages which incidents changed.

const SWEEP_INTERVAL_MS = 60_000;
let lastSweep = 0;

/**
 * Per cluster, its last round when that round was quiet (every signal ok, nothing decided, nothing new to remember,
 * no unresolved incident): the same signals again, under the same lease term and with no incident change announced
 * since, decide nothing either, so they are not judged. A healthy fleet costs no transaction per cluster and poll;
 * any signal not ok, any incident change (an alert, an acknowledgement, another replica's), a takeover judges again.
 */
const quietRounds = new WeakMap<Db, Map<string, { signature: string; term?: number; config: IncidentRulesConfig; announcements: number }>>();
let announcements = 0;
let counting = false;

/** The round's signals when every one is ok (their ids and subjects, in order), else undefined. */
function quietSignature(signals: readonly Signal[]): string | undefined {
  if (signals.some((s) => s.state !== "ok")) return undefined;
  return signals
    .map((s) => `${s.id}\u0000${s.subject}`)
    .sort()
    .join("\n");
}

/**
 * Judges one committed round (leader only: followers would count the same observation twice); returns what it
 * refused. `onOpened` hears the incidents it opened or reopened, once they are written.
 */
export async function judgeRound(
  db: Db,
  committed: CommittedRound,
  config: IncidentRulesConfig,
  onOpened?: (ids: number[]) => void,
): Promise<Refusal[] | undefined> {
  if (!counting) {
    counting = true;
    onIncidents(() => (announcements += 1));
  }
  let quiet = quietRounds.get(db);
  if (!quiet) quietRounds.set(db, (quiet = new Map()));
  const signature = quietSignature(committed.signals);
  const held = quiet.get(committed.cluster);
  const term = committed.fence?.term;
  let outcome: RoundOutcome = { opened: [], joined: [], reopened: [], resolved: [], transitions: 0 };
  const same = held !== undefined && held.signature === signature && held.term === term && held.config === config && held.announcements === announcements;
  if (signature === undefined || committed.transitions.length > 0 || !same) {
    const before = announcements;
    const judged = await applyRoundWithQuiet(db, committed.cluster, committed.signals, committed.at, config, committed.fence);
    outcome = judged.outcome;
    if (judged.quiet && signature !== undefined) quiet.set(committed.cluster, { signature, term, config, announcements: before });
    else quiet.delete(committed.cluster);
  }
  const opened = [...outcome.opened, ...outcome.reopened];
  if (opened.length > 0) onOpened?.(opened);
  const touched = [...outcome.opened, ...outcome.joined, ...outcome.reopened, ...outcome.resolved];
  if (Date.now() - lastSweep >= SWEEP_INTERVAL_MS) {
    lastSweep = Date.now();
    touched.push(...(await sweepIncidents(db, new Date(), config)));
  }
  if (touched.length > 0 || outcome.transitions > 0) announceIncidents(touched);
  return outcome.refused;
}
