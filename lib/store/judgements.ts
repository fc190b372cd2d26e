import type { Prisma } from "@/lib/db/generated/client";
import { cleanText } from "@/lib/text/outside-text";
import { compareKeys, key } from "./persist";

// The incident rules' memory, kept in the one signal-state table beside what the store committed: the state
// the rules last judged, since when, for how many rounds, and whether that run already made an incident.
// Read and written with the transaction of the incidents it decides about (lib/incidents/apply-round.ts).

export interface Judgement {
  signal: string;
  subject: string;
  /** ok | warning | critical | unknown | absent */
  state: string;
  since: Date;
  streak: number;
  handled: boolean;
  detail: string;
  /** When it last turned not-ok within the flapping window (lib/incidents/rules.ts). */
  onsets?: Date[];
}

/** Every (signal, subject) of the cluster the rules hold a judgement on; the others read as ok. */
export async function loadJudgements(tx: Prisma.TransactionClient, cluster: string): Promise<Judgement[]> {
  const rows = await tx.signalState.findMany({
    where: { cluster, judged: { not: null } },
    select: { signal: true, subject: true, judged: true, judgedSince: true, streak: true, handled: true, detail: true, onsets: true },
  });
  return rows.map((r) => ({
    signal: r.signal,
    subject: r.subject,
    state: r.judged!,
    since: r.judgedSince!,
    streak: r.streak,
    handled: r.handled,
    detail: r.detail,
    onsets: r.onsets,
  }));
}

/**
 * Stores judgements; a signal the store has not written yet gets its row here (its committed state is then
 * the judged one until the store writes it). In key order, as the store writes, so the two never deadlock.
 */
export async function saveJudgements(tx: Prisma.TransactionClient, cluster: string, judgements: Judgement[], now: Date): Promise<void> {
  if (judgements.length === 0) return;
  const rows = [...judgements].sort((a, b) => compareKeys(key(a.signal, a.subject), key(b.signal, b.subject)));
  await tx.$executeRaw`
    INSERT INTO "signal_states" ("cluster", "signal", "subject", "state", "since", "detail", "updated_at", "judged", "judged_since", "streak", "handled", "onsets")
    SELECT ${cluster}, s.signal, s.subject, s.state, s.since, s.detail, ${now}, s.state, s.since, s.streak, s.handled,
      COALESCE(string_to_array(NULLIF(s.onsets, ''), ',')::timestamptz(3)[], '{}')
    FROM unnest(${rows.map((r) => r.signal)}::text[], ${rows.map((r) => r.subject)}::text[], ${rows.map((r) => r.state)}::text[],
                ${rows.map((r) => r.since.toISOString())}::timestamptz[], ${rows.map((r) => r.streak)}::int[], ${rows.map((r) => r.handled)}::boolean[],
                ${rows.map((r) => cleanText(r.detail, 2000))}::text[],
                ${rows.map((r) => (r.onsets ?? []).map((t) => t.toISOString()).join(","))}::text[]) AS s(signal, subject, state, since, streak, handled, detail, onsets)
    ON CONFLICT ("cluster", "signal", "subject") DO UPDATE SET "judged" = EXCLUDED."judged", "judged_since" = EXCLUDED."judged_since",
      "streak" = EXCLUDED."streak", "handled" = EXCLUDED."handled", "detail" = EXCLUDED."detail", "onsets" = EXCLUDED."onsets"`;
}
