import { z } from "zod";
import { getCatalog } from "@/lib/catalog/queries";
import { Invalid } from "@/lib/errors";
import { formatConfidence } from "@/lib/diagnosis/confidence";
import { SLUG } from "@/lib/content/ids";
import type { Signal } from "@/lib/signals/signal-model";
import { lockIncident } from "../members/actions";
import { announced } from "../members/announce";
import { refreshSuspects } from "../members/membership";
import { readOr, readSuspects } from "../stored";
import { suggestAnswer } from "../suspects/suggest";
import { appendEvent, inTransaction, type Db } from "../tx";
import { QUESTION_ANSWERED } from "./answers";

// The separating question answered where the incident page asks it (docs/incidents.md, "The question in place"): a
// runbook question's branch, with what live data suggested beside it, or, for a catalog question no runbook step
// asks, which of the two suspects the check showed. The answer is evidence, so the suspects are ranked again at once.

const Slug = z.string().regex(SLUG, "must be a catalog or runbook id (a lowercase slug)");

export const QuestionAnswerBody = z
  .strictObject({
    actor: z.string().max(1000).optional(),
    /** A runbook question: the runbook, its question node and the branch taken. */
    runbookId: Slug.optional(),
    node: z.string().min(1).max(100).optional(),
    answer: z.string().min(1).max(200).optional(),
    /** A catalog question: the failure mode the check showed, and the one it ruled out. */
    choose: Slug.optional(),
    over: Slug.optional(),
  })
  .superRefine((b, ctx) => {
    const runbook = b.runbookId !== undefined || b.node !== undefined || b.answer !== undefined;
    const choice = b.choose !== undefined || b.over !== undefined;
    if (runbook === choice)
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "answer a runbook question with runbookId, node and answer, or a catalog question with choose and over",
      });
    else {
      const needed = runbook ? (["runbookId", "node", "answer"] as const) : (["choose", "over"] as const);
      for (const k of needed) if (b[k] === undefined) ctx.addIssue({ code: "custom", path: [k], message: "is required" });
    }
  });
export type QuestionAnswerBody = z.infer<typeof QuestionAnswerBody>;

export interface QuestionAnswerResult {
  before: { id: string; title: string } | null;
  top: { id: string; title: string; confidence: string } | null;
  moved: boolean;
  summary: string;
}

/** What an answer says, checked against the catalog: the event's payload, or a 422 naming the field. */
function readAnswer(body: QuestionAnswerBody, live: Signal[]): { payload: Record<string, unknown>; said: string } {
  const catalog = getCatalog();
  if (body.runbookId) {
    const runbook = catalog.runbooks.find((r) => r.id === body.runbookId);
    if (!runbook) throw Invalid.fields({ runbookId: [`no runbook "${body.runbookId}"`] });
    const node = runbook.nodes.find((n) => n.id === body.node);
    if (!node || node.kind !== "question" || node.next.length < 2) throw Invalid.fields({ node: [`"${body.node}" is not a question of ${runbook.id}`] });
    const next = node.next.find((n) => (n.label ?? "").trim().toLowerCase() === body.answer!.trim().toLowerCase());
    if (!next) throw Invalid.fields({ answer: [`must be one of: ${node.next.map((n) => n.label || "(none)").join(", ")}`] });
    const suggested = suggestAnswer(node, live) ?? null;
    return {
      payload: {
        runbookId: runbook.id,
        node: node.id,
        question: node.label,
        answer: next.label,
        to: next.to,
        suggested,
        followedSuggestion: suggested ? suggested.answer.toLowerCase() === (next.label ?? "").toLowerCase() : null,
      },
      said: `answered "${node.label}" ${next.label}${suggested ? ` (live data suggested ${suggested.answer})` : ""}`,
    };
  }
  const title = (id: string) => catalog.entries.find((e) => e.id === id && e.kind === "failure-mode")?.title;
  const [choose, over] = [title(body.choose!), title(body.over!)];
  if (!choose) throw Invalid.fields({ choose: [`"${body.choose}" is not a failure mode of the catalog`] });
  if (!over) throw Invalid.fields({ over: [`"${body.over}" is not a failure mode of the catalog`] });
  if (body.choose === body.over) throw Invalid.fields({ over: ["must differ from choose"] });
  const mode = catalog.entries.find((e) => e.id === body.choose);
  const question = (mode?.kind === "failure-mode" && mode.diagnosis?.question) || "which of the two the check showed";
  return { payload: { choose: body.choose, over: body.over, question }, said: `answered that the check showed ${choose}, not ${over}` };
}

/** Records the answer and ranks the suspects again under the incident's lock; says whether the first suspect moved. */
export async function answerQuestion(
  db: Db,
  incidentId: number,
  body: QuestionAnswerBody & { actor: string },
  live: (cluster: string) => Signal[],
  now: Date = new Date(),
): Promise<QuestionAnswerResult> {
  return announced(
    incidentId,
    inTransaction(db, async (tx) => {
      await lockIncident(tx, incidentId);
      const incident = await tx.incident.findUniqueOrThrow({ where: { id: incidentId }, select: { cluster: true, suspects: true } });
      const { payload, said } = readAnswer(body, live(incident.cluster));
      const before = readOr(() => readSuspects(incident.suspects, incidentId), []).value[0];
      await appendEvent(tx, { incidentId, at: now, kind: QUESTION_ANSWERED, actor: body.actor, summary: said, payload });
      await tx.incident.update({ where: { id: incidentId }, data: { updatedAt: now } });
      await refreshSuspects(tx, incidentId, now, body.actor);
      const after = await tx.incident.findUniqueOrThrow({ where: { id: incidentId }, select: { suspects: true } });
      const ranked = readOr(() => readSuspects(after.suspects, incidentId), []).value;
      const top = ranked[0];
      const moved = (before?.id ?? null) !== (top?.id ?? null);
      return {
        before: before ? { id: before.id, title: before.title } : null,
        top: top ? { id: top.id, title: top.title, confidence: formatConfidence(top.confidence ?? 0, ranked.length) } : null,
        moved,
        summary: `${said[0].toUpperCase()}${said.slice(1)}. ${
          top
            ? `${moved ? "The first suspect is now" : "The first suspect is still"} ${top.title} (${formatConfidence(top.confidence ?? 0, ranked.length)}).`
            : "No suspect."
        }`,
      };
    }),
  );
}
