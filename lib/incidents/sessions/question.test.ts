import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as answer } from "@/app/api/v1/incidents/[id]/answers/route";
import { GET as getIncident } from "@/app/api/v1/incidents/[id]/route";
import { setDatabaseUrl } from "@/lib/env";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { applyRound } from "../rounds/apply-round";

// The separating question answered where the incident page asks it, through the route as Next calls it, against a
// real PostgreSQL: the answer is recorded, the suspects are ranked again at once, and a bad answer is refused by field.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
});
afterAll(async () => db.close());

const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });
const params = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
const post = (id: number, body: unknown) =>
  answer(
    new NextRequest(`http://127.0.0.1:3000/api/v1/incidents/${id}/answers`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    }),
    params(id),
  );
const detail = async (id: number) => (await getIncident(new NextRequest(`http://127.0.0.1:3000/api/v1/incidents/${id}`), params(id))).json();

// A plugin whose socket refuses, behind kube-apiserver's redacted check: several plugin faults read alike until someone looks.
const REFUSED = "connect: connection refused";

describe("POST /api/v1/incidents/{id}/answers", () => {
  it("records the on-call's answer to the question the incident asks, and the suspects follow it at once", async () => {
    const round = await applyRound(
      db.prisma,
      "question",
      [
        signal("kms.plugin.unhealthy", "master-1/1", "critical", REFUSED),
        signal("apiserver.kms-providers.failing", "master-1", "critical", `[-]kms-providers failed: reason withheld`),
      ],
      at(0),
      config,
    );
    const id = round.opened[0];
    const before = await detail(id);
    const [first] = before.suspects;
    expect(first.undecided, "the incident cannot tell its first two suspects apart, so it asks").toBeDefined();
    const u = first.undecided;
    const option = u.options.find((o: { leadsTo: string[] }) => o.leadsTo.includes(u.with) && !o.leadsTo.includes(first.id));
    expect(option).toBeDefined();
    const body = u.runbook ? { runbookId: u.runbook.id, node: u.runbook.node, answer: option.label } : { choose: u.with, over: first.id };

    const reply = await post(id, body);
    expect(reply.status).toBe(201);
    const result = await reply.json();
    expect(result.moved).toBe(true);
    expect(result.top.id).toBe(u.with);
    expect(result.summary).toMatch(/The first suspect is now/);

    const after = await detail(id);
    expect(after.suspects[0].id).toBe(u.with);
    expect(after.suspects[0].supports.join(" ")).toMatch(/the on-call answered/);
    const event = after.timeline.find((e: { kind: string }) => e.kind === "question_answered");
    expect(event?.summary).toMatch(/answered/);
    expect(after.timeline.some((e: { kind: string }) => e.kind === "suspects_changed")).toBe(true);
  });

  it("refuses an answer that names no question, a branch the question lacks, or a failure mode the catalog lacks, by field", async () => {
    const round = await applyRound(db.prisma, "question-bad", [signal("openbao.sealed", "openbao", "critical", "sealed")], at(0), config);
    const id = round.opened[0];
    // 400, each naming its field: a body of the wrong shape, or one naming what the catalog does not have.
    const cases: [unknown, number, string][] = [
      [{}, 400, "answer a runbook question with runbookId, node and answer, or a catalog question with choose and over"],
      [{ choose: "openbao-sealed", runbookId: "openbao-sealed-or-unreachable" }, 400, "answer a runbook question"],
      [{ runbookId: "openbao-sealed-or-unreachable", node: "G", answer: "Perhaps" }, 400, "must be one of"],
      [{ runbookId: "openbao-sealed-or-unreachable", node: "nope", answer: "Yes" }, 400, "is not a question of openbao-sealed-or-unreachable"],
      [{ runbookId: "no-such-runbook", node: "G", answer: "Yes" }, 400, 'no runbook "no-such-runbook"'],
      [{ choose: "openbao-sealed", over: "not-a-mode" }, 400, '"not-a-mode" is not a failure mode of the catalog'],
    ];
    for (const [body, status, message] of cases) {
      const reply = await post(id, body);
      expect(reply.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(await reply.json()), JSON.stringify(body)).toContain(JSON.stringify(message).slice(1, -1));
    }
    expect((await post(999999, { choose: "openbao-sealed", over: "openbao-unavailable" })).status).toBe(404);
    // Nothing refused reached the timeline.
    expect((await detail(id)).timeline.some((e: { kind: string }) => e.kind === "question_answered")).toBe(false);
  });
});
