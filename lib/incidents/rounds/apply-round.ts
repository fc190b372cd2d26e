import type { Signal } from "@/lib/signals/signal-model";
import { checkFence, type Fence } from "@/lib/store/fence";
import type { CommittedRound } from "@/lib/store/persist";
import { loadJudgements, saveJudgements } from "@/lib/store/judgements";
import { cleanText, cleanValue } from "@/lib/text/outside-text";
import { reasonOf, unitOf, type Refusal } from "@/lib/text/refusal";
import { DEFAULT_RULES_CONFIG, type IncidentRulesConfig } from "@/lib/incident-rules-config";
import { memberKeyOf } from "../rules/member-key";
import {
  closeIncident,
  joinIncident,
  loadViews,
  openIncident,
  refreshSuspects,
  reopenIncident,
  RULES_ACTOR,
  withTexts,
  type MemberInput,
} from "../members/membership";
import { decideRound, incidentHealthySince, type Trigger } from "../rules/rules";
import type { SubjectMemory, RuleState } from "../rules/rule-types";
import { getCatalog } from "@/lib/catalog/queries";
import type { FailureMode } from "@/lib/catalog/schema";
import { evidenceTexts, namesACause, rankSuspects } from "../suspects/suspects";
import { appendEvent, inTransaction, RaceLost, type Db, type Tx } from "../tx";

// One monitor round of one cluster through the incident rules, in one transaction: the rules' memory (the rule
// columns of the one signal-state table, lib/store/judgements.ts) is read and written with the incidents it
// decides about, so a crash or a restart neither loses nor repeats.
// Each decision runs under its own savepoint: one the database refuses is rolled back alone, its rule memory
// is kept as it was (so it is tried again next round), and the others are committed.

export interface RoundOutcome {
  opened: number[];
  joined: number[];
  reopened: number[];
  resolved: number[];
  /** Signal transitions recorded on incidents. */
  transitions: number;
  /** Decisions the database refused, each alone; absent when there were none. */
  refused?: Refusal[];
}

async function loadRuleState(tx: Tx, cluster: string): Promise<RuleState> {
  const rows = await loadJudgements(tx, cluster);
  return new Map(rows.map((r) => [memberKeyOf({ cluster, ...r }), { ...r, state: r.state as SubjectMemory["state"] }]));
}

async function saveRuleState(tx: Tx, cluster: string, state: RuleState, changed: string[], now: Date): Promise<void> {
  await saveJudgements(tx, cluster, changed.map((key) => state.get(key)!).filter(Boolean), now);
}

/** One firing signal's own suspects, best first: what the rules group and reopen by (docs/incidents.md, "Grouping"). */
export function rankTrigger(t: { signal: string; subject: string; state: string; detail: string; texts?: string[] }): string[] {
  const active = [{ signal: t.signal, subject: t.subject, state: t.state, detail: t.detail, texts: t.texts }];
  // Each answer's facets after its root: the same outage, so a symptom of one is a symptom of the answer.
  return rankSuspects({ active, entries: getCatalog().entries, limit: 10 }).flatMap((s) => [s.id, ...(s.facets ?? []).map((f) => f.id)]);
}

interface CatalogIndex {
  candidates: Map<string, string[]>;
  roots: Map<string, string[]>;
}
const indexes = new WeakMap<object, CatalogIndex>();
function indexOf(): CatalogIndex {
  const { entries } = getCatalog();
  let index = indexes.get(entries);
  if (index) return index;
  const modes = entries.filter((e): e is FailureMode => e.kind === "failure-mode");
  const byId = new Map(modes.map((m) => [m.id, m]));
  const add = (map: Map<string, string[]>, signal: string, id: string) => {
    const held = map.get(signal) ?? [];
    if (!held.includes(id)) map.set(signal, [...held, id]);
  };
  index = { candidates: new Map(), roots: new Map() };
  for (const m of modes) {
    for (const s of m.signals) add(index.candidates, s, m.id);
    for (const s of m.diagnosis?.needs ?? []) add(index.roots, s, m.id);
  }
  // A root cause that explains a mode is what that mode's signals could be symptoms of too.
  for (const m of modes)
    for (const explained of m.diagnosis?.explains ?? []) for (const s of byId.get(explained)?.signals ?? []) add(index.candidates, s, m.id);
  indexes.set(entries, index);
  return index;
}

/** The failure modes a signal could be a symptom of: the catalog lists it for them, or for a mode they explain. */
export function candidatesOf(signal: string): string[] {
  return indexOf().candidates.get(signal) ?? [];
}

/** The failure modes that need a signal (`diagnosis.needs`): it is direct evidence of them, their root signal. */
export function rootsOf(signal: string): string[] {
  return indexOf().roots.get(signal) ?? [];
}

const member = (cluster: string, t: Trigger, texts: string[] | undefined): MemberInput => ({
  cluster,
  signal: t.signal,
  subject: t.subject,
  source: "signal",
  state: t.state,
  detail: t.detail,
  ...withTexts(texts),
  severity: t.severity,
});

/**
 * Runs the incident rules over one round of a cluster's signals and stores the outcome. Call it after each
 * monitor round (only the process that holds the cluster); a failed call can simply be repeated next round.
 */
export async function applyRound(
  db: Db,
  cluster: string,
  signals: Signal[],
  now: Date,
  config: IncidentRulesConfig = DEFAULT_RULES_CONFIG,
  fence?: Fence,
): Promise<RoundOutcome> {
  return (await applyRoundWithQuiet(db, cluster, signals, now, config, fence)).outcome;
}

/**
 * applyRound, and whether the round was quiet: it decided nothing, remembered nothing new and refused nothing, and
 * the cluster has no unresolved incident (whose resolution would wait on time alone). Judge.ts skips the same quiet
 * round while no incident changes.
 */
export async function applyRoundWithQuiet(
  db: Db,
  cluster: string,
  signals: Signal[],
  now: Date,
  config: IncidentRulesConfig = DEFAULT_RULES_CONFIG,
  fence?: Fence,
): Promise<{ outcome: RoundOutcome; quiet: boolean }> {
  // The monitor's intake already cleaned these; a detail is cheap to clean again, evidence is cleaned where it is written.
  const clean = signals.map((s) => ({ ...s, detail: cleanText(s.detail) }));
  const healthyNow = clean.filter((s) => s.state === "ok").map((s) => ({ signal: s.id, subject: s.subject }));
  return inTransaction(db, async (tx) => {
    // A leader whose lease another process has taken judges nothing: the new leader judges from what is stored.
    await checkFence(tx, fence);
    const outcome: RoundOutcome = { opened: [], joined: [], reopened: [], resolved: [], transitions: 0 };
    const refused: Refusal[] = [];
    const failed = new Set<string>();
    const unit = (memberKeys: string[], label: string, work: () => Promise<void>) =>
      inSavepoint(tx, work, (error) => {
        for (const key of memberKeys) failed.add(key);
        const reason = reasonOf(error);
        refused.push({ unit: label, reason });
        // Once per unit and reason, not every round while it stays refused.
        const logKey = `${cluster}\u0000${label}`;
        if (logged.get(logKey) !== reason) console.error(`[faultline] incident rules ${cluster}: ${label}: refused: ${reason}`);
        logged.set(logKey, reason);
      });
    const previous = await loadRuleState(tx, cluster);
    const incidents = await loadViews(tx, cluster, now, config);
    const key = (s: { signal: string; subject: string }) => memberKeyOf({ cluster, signal: s.signal, subject: s.subject });
    // This round's signals by member key: their evidence for the timeline, their texts for the ranking.
    const byMemberKey = new Map(clean.map((s) => [key({ signal: s.id, subject: s.subject }), s]));
    const texts = new Map<string, string[]>();
    // What a signal says besides its sentence, ranked with the detail as the evaluation ranks it; worked out only for
    // the signals the rules rank or an incident holds, not for every signal of the round.
    const textsOf = (memberKey: string): string[] | undefined => {
      const signal = byMemberKey.get(memberKey);
      if (!signal) return undefined;
      let held = texts.get(memberKey);
      if (!held) texts.set(memberKey, (held = evidenceTexts(signal)));
      return held;
    };
    const rank = (t: Parameters<typeof rankTrigger>[0]) => rankTrigger({ ...t, texts: textsOf(key(t)) });
    // An unknown signal says why it could not be judged, not what is wrong (the ranking reads it so too).
    const specific = (memberKey: string) => {
      const signal = byMemberKey.get(memberKey);
      return !!signal && signal.state !== "unknown" && namesACause([signal.detail, ...(textsOf(memberKey) ?? [])]);
    };
    const { state, changed, actions } = decideRound({
      cluster,
      previous,
      signals: clean,
      incidents,
      now,
      config,
      rankTrigger: rank,
      candidatesOf,
      rootsOf,
      specific,
    });
    const memberOf = (t: Trigger) => member(cluster, t, textsOf(key(t)));
    const touched = new Set<number>();
    // Incidents where something fired this round: only these may be renamed after their top suspect.
    const fired = new Set<number>();
    for (const action of actions) {
      if (action.kind === "transition") {
        await unit([action.memberKey], unitOf(action.signal, action.subject), async () => {
          await tx.incidentMember.updateMany({
            where: { incidentId: action.incidentId, memberKey: action.memberKey },
            data: {
              state: action.to,
              detail: cleanText(action.detail, 2000),
              ...withTexts(textsOf(action.memberKey)),
              changedAt: now,
              healthySince: action.healthy ? now : null,
            },
          });
          const recorded = await appendEvent(tx, {
            incidentId: action.incidentId,
            at: now,
            kind: "signal_transition",
            actor: RULES_ACTOR,
            summary: `${action.signal} on ${action.subject}: ${action.from} → ${action.to}`,
            payload: {
              signal: action.signal,
              subject: action.subject,
              from: action.from,
              to: action.to,
              detail: action.detail,
              evidence: cleanValue(byMemberKey.get(action.memberKey)?.evidence),
            },
            key: `transition:${action.incidentId}:${action.memberKey}:${action.to}:${now.toISOString()}`,
          });
          if (recorded) outcome.transitions++;
          if (!action.healthy) {
            await tx.incident.update({ where: { id: action.incidentId }, data: { lastSeenAt: now, updatedAt: now } });
            fired.add(action.incidentId);
          }
          touched.add(action.incidentId);
        });
      } else if (action.kind === "detail") {
        // What a firing member says now: the suspects are ranked from it (no timeline event: the state is the same).
        await unit([], `incident ${action.incidentId}: detail`, async () => {
          await tx.incidentMember.updateMany({
            where: { incidentId: action.incidentId, memberKey: action.memberKey, open: true },
            data: { detail: cleanText(action.detail, 2000), ...withTexts(textsOf(action.memberKey)) },
          });
          touched.add(action.incidentId);
          fired.add(action.incidentId);
        });
      } else if (action.kind === "open") {
        const opened = await inSavepoint(tx, async () => {
          const { incidentId, created } = await openIncident(
            tx,
            action.group.map((t) => memberOf(t)),
            { now, reason: action.group[0].reason },
          );
          (created ? outcome.opened : outcome.joined).push(incidentId);
          touched.add(incidentId);
          fired.add(incidentId);
        });
        // A group the database refused opens without its refused members: the first that can be written opens, the rest join it.
        if (!opened) {
          let incidentId: number | undefined;
          for (const t of action.group) {
            await unit([key(t)], unitOf(t.signal, t.subject), async () => {
              if (incidentId === undefined) {
                const result = await openIncident(tx, [memberOf(t)], { now, reason: t.reason });
                incidentId = result.incidentId;
                (result.created ? outcome.opened : outcome.joined).push(incidentId);
              } else await joinIncident(tx, incidentId, memberOf(t), now);
              touched.add(incidentId);
              fired.add(incidentId);
            });
          }
        }
      } else if (action.kind === "join") {
        await unit([key(action.trigger)], unitOf(action.trigger.signal, action.trigger.subject), async () => {
          const holder = await joinIncident(tx, action.incidentId, memberOf(action.trigger), now);
          touched.add(holder);
          fired.add(holder);
          outcome.joined.push(action.incidentId);
        });
      } else if (action.kind === "reopen") {
        await unit([key(action.trigger)], unitOf(action.trigger.signal, action.trigger.subject), async () => {
          const holder = await reopenIncident(tx, action.incidentId, memberOf(action.trigger), now, action.trigger.reason);
          touched.add(holder);
          fired.add(holder);
          outcome.reopened.push(action.incidentId);
        });
      } else {
        await unit([], `incident ${action.incidentId}`, async () => {
          const current = await tx.incident.findUnique({ where: { id: action.incidentId }, select: { status: true } });
          if (!current || current.status === "resolved") return; // resolved by a person meanwhile
          await closeIncident(tx, action.incidentId, now, RULES_ACTOR, action.reason, current.status);
          outcome.resolved.push(action.incidentId);
        });
      }
    }
    // A refused decision keeps its rule memory as it was, so the next round decides it again.
    const kept = changed.filter((f) => !failed.has(f));
    for (const f of failed) if (previous.has(f)) state.set(f, previous.get(f)!);
    // Saved together; a batch the database refuses is halved until the refused member keys stand alone.
    const save = async (part: string[]): Promise<void> => {
      const held = state.get(part[0]);
      if (part.length === 1)
        return void (await unit(part, held ? unitOf(held.signal, held.subject) : cleanText(part[0], 200), () => saveRuleState(tx, cluster, state, part, now)));
      if (part.length === 0 || (await inSavepoint(tx, () => saveRuleState(tx, cluster, state, part, now)))) return;
      const half = Math.ceil(part.length / 2);
      await save(part.slice(0, half));
      await save(part.slice(half));
    };
    await save(kept);
    for (const id of touched)
      if (!outcome.resolved.includes(id))
        await unit([], `incident ${id}: suspects`, () => refreshSuspects(tx, id, now, RULES_ACTOR, fired.has(id), healthyNow));
    if (refused.length > 0) outcome.refused = refused;
    const quiet = actions.length === 0 && changed.length === 0 && refused.length === 0 && incidents.every((i) => i.status === "resolved");
    return { outcome, quiet };
  });
}

/** Judges what the store committed for one round (the monitor's round: compose, commit, judge). */
export function judgeCommitted(db: Db, committed: CommittedRound, config: IncidentRulesConfig = DEFAULT_RULES_CONFIG): Promise<RoundOutcome> {
  return applyRound(db, committed.cluster, committed.signals, committed.at, config, committed.fence);
}

const logged = new Map<string, string>();

/**
 * Runs one unit of a round under a savepoint; a failure rolls back that unit only. A lost race is not the
 * unit's fault: it is thrown, so inTransaction runs the whole round again.
 */
async function inSavepoint(tx: Tx, work: () => Promise<void>, onRefused: (error: unknown) => void = () => undefined): Promise<boolean> {
  await tx.$executeRawUnsafe("SAVEPOINT faultline_unit");
  try {
    await work();
  } catch (error) {
    if (error instanceof RaceLost || RACE.test(describeError(error))) throw error;
    await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT faultline_unit");
    onRefused(error);
    return false;
  }
  await tx.$executeRawUnsafe("RELEASE SAVEPOINT faultline_unit");
  return true;
}

// The conflicts tx.ts retries; its own test is private, so the codes are named again here.
const RACE = /P2002|P2034|23505|40001|40P01|UniqueConstraintViolation|TransactionWriteConflict|unique constraint|could not serialize|deadlock/i;
function describeError(error: unknown): string {
  const e = error as { code?: string; message?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } };
  return `${e.code ?? ""} ${e.meta?.code ?? ""} ${e.meta?.driverAdapterError?.cause?.originalCode ?? ""} ${e.meta?.driverAdapterError?.cause?.kind ?? ""} ${e.message ?? ""}`;
}

/**
 * Resolves incidents on any cluster whose member keys have all been healthy long enough: for alert-only
 * incidents of clusters no monitor reads. Call it about once a minute from one process.
 */
export async function sweepIncidents(db: Db, now: Date, config: IncidentRulesConfig = DEFAULT_RULES_CONFIG): Promise<number[]> {
  return inTransaction(db, async (tx) => {
    const rows = await tx.incident.findMany({
      where: { status: { not: "resolved" }, members: { every: { healthySince: { not: null } } } },
      include: { members: true },
    });
    const resolved: number[] = [];
    for (const row of rows) {
      const since = incidentHealthySince(
        {
          id: row.id,
          status: row.status as "open",
          openedAt: row.openedAt,
          reopenedAt: row.reopenedAt,
          resolvedAt: null,
          members: row.members.map((m) => ({ ...m, source: "alert" as const })),
        },
        new Map(),
      );
      if (!since || (now.getTime() - since.getTime()) / 1000 < config.resolveAfterSeconds) continue;
      await closeIncident(tx, row.id, now, RULES_ACTOR, `every signal healthy for ${Math.round((now.getTime() - since.getTime()) / 1000)}s`, row.status);
      resolved.push(row.id);
    }
    return resolved;
  });
}
