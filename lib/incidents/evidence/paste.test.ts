import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listEvidence, POST as paste } from "@/app/api/v1/incidents/[id]/evidence/route";
import { GET as getIncident } from "@/app/api/v1/incidents/[id]/route";
import { POST as startSession } from "@/app/api/v1/incidents/[id]/runbook-sessions/route";
import { POST as answerStep } from "@/app/api/v1/incidents/[id]/runbook-sessions/[sid]/steps/route";
import type { PrismaClient } from "@/lib/db/generated/client";
import { setDatabaseUrl } from "@/lib/env";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { applyRound } from "../rounds/apply-round";
import { PASTE_BODY_LIMIT } from "./paste";
import { DOCTOR_CONFIG_UNSAFE as DOCTOR } from "@/test/plugin-reports";

// What the on-call learns changes the ranking: pasted output and runbook answers, through the route handlers as Next
// calls them, against a real PostgreSQL.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
  setDatabaseUrl(db.url);
});
afterAll(async () => db.close());

const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });
const post = (path: string, body: unknown) =>
  new NextRequest(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const get = (path: string) => new NextRequest(`http://127.0.0.1:3000${path}`);
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const pasteInto = (id: number | string, body: unknown) => paste(post(`/api/v1/incidents/${id}/evidence`, body), params({ id: String(id) }));
const detail = async (id: number) => (await getIncident(get(`/api/v1/incidents/${id}`), params({ id: String(id) }))).json();

// The demo cluster's "KMS plugin down on one node": the plugin's socket refuses, the API server's check fails with it.
// A refused dial is a dead plugin or the socket it left as much (the stale socket shares the evidence).
const REFUSED =
  'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/kmsplugin/kms-1.sock: connect: connection refused"';
const pluginDown = (cluster: string) =>
  applyRound(
    prisma,
    cluster,
    [
      signal("kms.plugin.unhealthy", "master-1/1", "critical", REFUSED),
      signal("apiserver.kms-providers.failing", "master-1", "critical", `[-]kms-providers failed: kmsv2 Provider kms-1 is not healthy, error: ${REFUSED}`),
    ],
    at(0),
    config,
  );

describe("POST /api/v1/incidents/{id}/evidence", () => {
  it("re-ranks an incident on a pasted doctor report and says what it found and what it moved", async () => {
    const id = (await pluginDown("paste-doctor")).opened[0];
    expect((await detail(id)).suspects[0].id).toBe("kms-plugin-unavailable");

    const answer = await pasteInto(id, { text: DOCTOR });
    expect(answer.status).toBe(201);
    const body = await answer.json();
    expect(body.evidence).toMatchObject({ lines: 5, kept: 5, hidden: 0 });
    expect(body.evidence.classes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "config-unsafe-permissions", quote: "file permissions unsafe" }),
        expect.objectContaining({ id: "config-invalid", quote: "config invalid;" }),
      ]),
    );
    expect(body.before).toEqual({ id: "kms-plugin-unavailable", title: "KMS plugin unavailable" });
    // The plugin exits on the failed validation the report shows: the refused socket is that cause's too.
    expect(body.top).toEqual({ id: "kms-config-permissions-unsafe", title: "Plugin configuration file permissions unsafe", confidence: ">99%" });
    expect(body.moved).toBe(true);
    expect(body.summary).toContain("This moved Plugin configuration file permissions unsafe to the top (it was KMS plugin unavailable)");

    const after = await detail(id);
    expect(after.suspects[0].id).toBe("kms-config-permissions-unsafe");
    expect(after.suspects[0].supports).toContain(
      'the text says "file permissions unsafe" (A file or directory the plugin uses has unsafe permissions or is a symlink) on the output pasted by local',
    );
    // Oldest first: the paste, the ranking it changed, and the title that follows the new first suspect.
    const latest = after.timeline.slice(after.timeline.findIndex((e: { kind: string }) => e.kind === "evidence_added"));
    expect(latest.map((e: { kind: string; actor: string }) => `${e.kind} by ${e.actor}`)).toEqual([
      "evidence_added by local",
      "suspects_changed by local",
      "title_changed by faultline",
    ]);
    expect(latest[0].payload).toMatchObject({ lines: 1, hidden: 0 });
    expect(after.incident.title).toBe("Plugin configuration file permissions unsafe (master-1/1)");

    const listed = await (await listEvidence(get(`/api/v1/incidents/${id}/evidence`), params({ id: String(id) }))).json();
    expect(listed.evidence).toHaveLength(1);
    expect(listed.evidence[0]).toMatchObject({ kind: "pasted", source: "the output pasted by local", actor: "local", texts: [DOCTOR] });
    expect(listed.evidence[0].classes).toContainEqual({
      id: "config-unsafe-permissions",
      title: "A file or directory the plugin uses has unsafe permissions or is a symlink",
    });
  });

  it("hides the secrets in a paste and counts them, and keeps the lines that say something", async () => {
    const id = (await pluginDown("paste-secret")).opened[0];
    const journal = [
      "Nov 28 02:10:01 master-1 bao-kms-provider[48211]: debug: login request X-Vault-Token: hvs.CAESIJ7mXq3kzQ2b8Yd0pLr6WnT4gH5sVxA1cE9uF0oKiZ3a",
      "Nov 28 02:10:01 master-1 bao-kms-provider[48211]: provider exited: lookup socket group: group: unknown group kms-clients",
      "Nov 28 02:10:06 master-1 systemd[1]: bao-kms-provider.service: Scheduled restart job, restart counter is at 5.",
    ].join("\n");
    const body = await (await pasteInto(id, { text: journal })).json();
    expect(body.evidence.hidden).toBe(1);
    expect(body.evidence.classes.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(["socket-group-unknown", "crash-loop"]));
    expect(body.summary).toContain("1 secret was hidden.");
    const listed = JSON.stringify(await (await listEvidence(get(`/api/v1/incidents/${id}/evidence`), params({ id: String(id) }))).json());
    expect(listed).toContain("X-Vault-Token: [hidden]");
    expect(listed).not.toContain("hvs.CAES");
    const rows = await prisma.incidentEvidence.findMany({ where: { incidentId: id } });
    expect(JSON.stringify(rows)).not.toContain("hvs.CAES");
  });

  it("records a paste the catalog cannot read, and says so", async () => {
    const id = (await pluginDown("paste-nothing")).opened[0];
    const before = (await detail(id)).suspects.map((s: { id: string }) => s.id);
    const lines = Array.from({ length: 40 }, (_, i) => `I1128 02:00:${String(i).padStart(2, "0")} handler.go:12] served encrypt in 3ms`);
    const answer = await pasteInto(id, { text: lines.join("\n") });
    expect(answer.status).toBe(201);
    const body = await answer.json();
    expect(body.evidence).toMatchObject({ lines: 40, kept: 40, classes: [] });
    expect(body.moved).toBe(false);
    expect(body.summary).toBe("No error the catalog knows in these 40 lines; it is on the timeline. KMS plugin unavailable stays first (49%).");
    const after = await detail(id);
    expect(after.suspects.map((s: { id: string }) => s.id)).toEqual(before);
    expect(after.timeline.find((e: { kind: string }) => e.kind === "evidence_added").summary).toBe("the output pasted by local: no error the catalog knows");
  });

  it("refuses hostile bodies with a precise 4xx and records none of them", async () => {
    const id = (await pluginDown("paste-hostile")).opened[0];
    const refused = async (body: unknown) => {
      const r = await pasteInto(id, body);
      return [r.status, await r.json()];
    };
    expect(await refused({ text: "x".repeat(PASTE_BODY_LIMIT) })).toEqual([413, { error: `request body larger than ${PASTE_BODY_LIMIT} bytes` }]);
    expect(await refused({ text: "" })).toEqual([400, { error: "invalid request", fields: { text: ["must not be empty"] } }]);
    expect(await refused({ text: " \n\t \r\n" })).toEqual([400, { error: "invalid request", fields: { text: ["must not be empty"] } }]);
    expect(await refused({ text: 42 })).toEqual([400, { error: "invalid request", fields: { text: ["must be text (a string of the output to add)"] } }]);
    expect(await refused({ text: ["doctor"] })).toEqual([
      400,
      { error: "invalid request", fields: { text: ["must be text (a string of the output to add)"] } },
    ]);
    expect(await refused({})).toEqual([400, { error: "invalid request", fields: { text: ["is required: the output to add"] } }]);
    expect(await refused("{not json")).toEqual([400, { error: "invalid request", fields: { body: ["must be JSON"] } }]);
    expect(await refused({ text: "doctor", run: "rm -rf /" })).toEqual([
      400,
      { error: "invalid request", fields: { body: [expect.stringContaining('"run"')] } },
    ]);
    expect(await refused(`{"text":${"[".repeat(40)}${"]".repeat(40)}}`)).toEqual([
      400,
      { error: "invalid request", fields: { body: ["nests objects and arrays deeper than 32 levels"] } },
    ]);
    const missing = await pasteInto(424242, { text: DOCTOR });
    expect([missing.status, (await missing.json()).error]).toEqual([404, "no incident 424242"]);
    expect((await pasteInto("abc", { text: DOCTOR })).status).toBe(400);
    expect(await prisma.incidentEvidence.count({ where: { incidentId: id } })).toBe(0);
    // Text PostgreSQL cannot hold is replaced visibly, not refused.
    const odd = await pasteInto(id, { text: "bao says \u0000 sealed \ud800" });
    expect(odd.status).toBe(201);
    expect((await prisma.incidentEvidence.findFirstOrThrow({ where: { incidentId: id } })).texts).toEqual(["bao says \ufffd sealed \ufffd"]);
  });
});

describe("runbook answers re-rank an incident", () => {
  it("moves a sealed OpenBao to the top when the on-call answers that OpenBao answers 503 sealed", async () => {
    const redacted = "master-0: keyID 1 error: rpc error: code = Unknown desc = kms provider is not healthy";
    const id = (await applyRound(prisma, "answers", [signal("kms.plugin.unhealthy", "master-0/1", "critical", redacted)], at(0), config)).opened[0];
    expect((await detail(id)).suspects[0].id).not.toBe("openbao-sealed");
    const started = await startSession(
      post(`/api/v1/incidents/${id}/runbook-sessions`, { runbookId: "openbao-sealed-or-unreachable" }),
      params({ id: String(id) }),
    );
    const sid = String((await started.json()).session.id);
    const step = (body: { node: string; answer?: string }) =>
      answerStep(post(`/api/v1/incidents/${id}/runbook-sessions/${sid}/steps`, body), params({ id: String(id), sid }));
    for (const body of [{ node: "A" }, { node: "B", answer: "Yes" }]) expect((await step(body)).status).toBe(201);
    expect((await detail(id)).suspects[0].id).not.toBe("openbao-sealed");
    expect((await step({ node: "G", answer: "Yes" })).status).toBe(201);

    const after = await detail(id);
    expect(after.suspects[0].id).toBe("openbao-sealed");
    expect(after.suspects[0].supports).toContain("the on-call answered 'Does it answer 503 sealed?' yes");
    // The ranking the answer changed, right after the answer itself.
    const latest = after.timeline.slice(after.timeline.findLastIndex((e: { kind: string }) => e.kind === "runbook_step"));
    expect(latest.map((e: { kind: string }) => e.kind).slice(0, 2)).toEqual(["runbook_step", "suspects_changed"]);
    expect(latest[1]).toMatchObject({ actor: "local", summary: expect.stringContaining("top suspect: OpenBao sealed") });
  });
});
