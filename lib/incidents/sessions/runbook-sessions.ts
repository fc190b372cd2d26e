import { Conflict, Invalid, NotFound } from "@/lib/errors";
import type { Signal } from "@/lib/signals/signal-model";
import { getRunbook, listRunbooks } from "@/lib/catalog/runbooks";
import { nodeMap } from "@/lib/runbooks/walk";
import { lockIncident } from "../members/actions";
import { announced } from "../members/announce";
import { refreshSuspects } from "../members/membership";
import { readOr, readPath, readSteps, readSuspects, stepsJson, type RecordedStep } from "../stored";
import { suggestAnswer, suggestRunbooks } from "../suspects/suggest";
import { appendEvent, inTransaction, type Db } from "../tx";

// A runbook walked for an incident. Each answer is recorded with what live data suggested at that moment,
// so the postmortem shows the path, the evidence, and where the on-call overrode the suggestion.

export async function startRunbookSession(db: Db, incidentId: number, input: { actor: string; runbookId?: string }, now: Date = new Date()) {
  return announced(
    incidentId,
    inTransaction(db, async (tx) => {
      const incident = await tx.incident.findUnique({ where: { id: incidentId }, include: { members: true } });
      if (!incident) throw new NotFound(`no incident ${incidentId}`);
      let runbookId = input.runbookId;
      if (runbookId) {
        if (!getRunbook(runbookId)) throw Invalid.fields({ runbookId: [`no runbook "${runbookId}"`] });
      } else {
        const best = suggestRunbooks(
          listRunbooks(),
          readOr(() => readSuspects(incident.suspects, incidentId), []).value,
          incident.members.map((m) => m.signal),
        )[0];
        if (!best) throw new Conflict(`no runbook matches incident ${incidentId}; name one with runbookId`);
        runbookId = best.id;
      }
      const runbook = getRunbook(runbookId)!;
      const session = await tx.runbookSession.create({
        data: { incidentId, runbookId, startedAt: now, startedBy: input.actor, path: [runbook.root], steps: [] },
      });
      await appendEvent(tx, {
        incidentId,
        at: now,
        kind: "runbook_started",
        actor: input.actor,
        summary: `started runbook ${runbook.title} (${runbook.id})`,
        payload: { sessionId: session.id, runbookId },
      });
      return session;
    }),
  );
}

export interface StepInput {
  actor: string;
  /** The node being answered: must be where the session stands. */
  node: string;
  /** The label of the answer taken; may be left out on a step with one way on. */
  answer?: string;
  note?: string;
  /** What the on-call saw (command output, a link); recorded as is, beside the live evidence. */
  evidence?: unknown;
}

/**
 * Records one answer; `live` gives the cluster's live signals, which pre-answer a question that names one. The answer
 * is evidence (lib/diagnosis/answers.ts), so the incident's suspects are ranked again under its lock.
 */
export async function recordRunbookStep(
  db: Db,
  incidentId: number,
  sessionId: number,
  input: StepInput,
  live: Signal[] | ((cluster: string) => Signal[]),
  now: Date = new Date(),
) {
  return announced(
    incidentId,
    inTransaction(db, async (tx) => {
      await lockIncident(tx, incidentId);
      const rows = await tx.$queryRaw<
        { id: number }[]
      >`SELECT "id" FROM "incident_runbook_sessions" WHERE "id" = ${sessionId} AND "incident_id" = ${incidentId} FOR UPDATE`;
      if (rows.length === 0) throw new NotFound(`incident ${incidentId} has no runbook session ${sessionId}`);
      const session = await tx.runbookSession.findUniqueOrThrow({ where: { id: sessionId }, include: { incident: { select: { cluster: true } } } });
      const signals = typeof live === "function" ? live(session.incident.cluster) : live;
      if (session.finishedAt) throw new Conflict(`runbook session ${sessionId} finished at ${session.finishedAt.toISOString()} (outcome ${session.outcome})`);
      const runbook = getRunbook(session.runbookId);
      if (!runbook) throw new Conflict(`runbook ${session.runbookId} no longer exists`);
      const nodes = nodeMap(runbook);
      const path = readPath(session.path, sessionId);
      const here = nodes.get(path[path.length - 1])!;
      if (input.node !== here.id)
        throw new Conflict(`the session stands at ${here.id}, not ${input.node}; reload and answer ${here.id}`, { fields: { node: [`must be ${here.id}`] } });
      let next: { label?: string; to: string } | undefined;
      if (here.next.length > 1 || input.answer) {
        next = here.next.find((n) => (n.label ?? "").toLowerCase() === (input.answer ?? "").trim().toLowerCase());
        if (!next) throw Invalid.fields({ answer: [`must be one of: ${here.next.map((n) => n.label || "(none)").join(", ")}`] });
      } else next = here.next[0];
      const suggested = suggestAnswer(here, signals) ?? null;
      const answer = next?.label ?? null;
      const steps = readSteps(session.steps, sessionId);
      const step: RecordedStep = {
        index: steps.length,
        node: here.id,
        question: here.label,
        answer,
        to: next?.to ?? null,
        suggested,
        followedSuggestion: suggested ? suggested.answer.toLowerCase() === (answer ?? "").toLowerCase() : null,
        evidence: input.evidence ?? null,
        note: input.note ?? null,
        actor: input.actor,
        at: now.toISOString(),
      };
      const newPath = next ? [...path, next.to] : path;
      const leaf = next ? nodes.get(next.to)! : here;
      const finished = leaf.next.length === 0;
      const recorded = await appendEvent(tx, {
        incidentId,
        at: now,
        kind: "runbook_step",
        actor: input.actor,
        summary: `${runbook.id} ${here.id} "${here.label}"${answer ? `: ${answer}` : ""}${suggested ? ` (live data suggested ${suggested.answer})` : ""}`,
        payload: { sessionId, runbookId: runbook.id, ...step },
        key: `runbook:${sessionId}:${steps.length}`,
      });
      if (!recorded) throw new Conflict(`step ${steps.length} of session ${sessionId} was recorded by someone else just now; reload`);
      const updated = await tx.runbookSession.update({
        where: { id: sessionId },
        data: { path: newPath, steps: stepsJson([...steps, step]), ...(finished ? { finishedAt: now, outcome: leaf.id } : {}) },
      });
      if (finished) {
        await appendEvent(tx, {
          incidentId,
          at: now,
          kind: "runbook_finished",
          actor: input.actor,
          summary: `${runbook.id} ended at ${leaf.id}: ${leaf.label}`,
          payload: { sessionId, runbookId: runbook.id, outcome: leaf.id, label: leaf.label, kind: leaf.kind, catalog: leaf.catalog, runbooks: leaf.runbooks },
        });
      }
      await tx.incident.update({ where: { id: incidentId }, data: { updatedAt: now } });
      await refreshSuspects(tx, incidentId, now, input.actor);
      return { session: updated, step };
    }),
  );
}
