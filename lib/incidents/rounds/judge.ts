import { announceIncidents } from "@/lib/live/bus";
import type { CommittedRound } from "@/lib/store/persist";
import type { Refusal } from "@/lib/text/refusal";
import { judgeCommitted, sweepIncidents } from "./apply-round";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import type { Db } from "../tx";

// The incidents' end of a monitor round: judge what the store committed, resolve alert-only incidents of
// clusters no monitor reads about once a minute, and tell open pages which incidents changed.

const SWEEP_INTERVAL_MS = 60_000;
let lastSweep = 0;

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
  const outcome = await judgeCommitted(db, committed, config);
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
