import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as apiServer } from "@/app/api/v1/demo/api-server/route";
import { POST as inject } from "@/app/api/v1/demo/scenarios/[id]/route";
import { POST as alertmanager } from "@/app/api/v1/alerts/alertmanager/route";
import { GET as getRoute } from "@/app/api/v1/incidents/[id]/route";
import { POST as note } from "@/app/api/v1/incidents/[id]/notes/route";
import { POST as startSession } from "@/app/api/v1/incidents/[id]/runbook-sessions/route";
import { POST as step } from "@/app/api/v1/incidents/[id]/runbook-sessions/[sid]/steps/route";
import { setDatabaseUrl } from "@/lib/env";
import { MAX_BODY_DEPTH } from "@/lib/http/read-json";
import { migratedDatabase } from "@/test/incident-db";

// Hostile bodies sent to the real route handlers, against a real PostgreSQL: what used to be a 500.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let id = "";
beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  const delivery = {
    version: "4",
    groupKey: "{}:{}",
    status: "firing",
    receiver: "faultline",
    alerts: [
      {
        status: "firing",
        labels: { alertname: "OpenBaoSealed", severity: "critical", cluster: "hostile" },
        annotations: {},
        startsAt: "2026-11-23T05:00:00Z",
        fingerprint: "h0st1le",
      },
    ],
  };
  const body = await (await alertmanager(post("/api/v1/alerts/alertmanager", JSON.stringify(delivery)))).json();
  id = String(body.outcomes[0].incidentId);
});
afterAll(async () => db.close());

function post(path: string, body: string) {
  return new NextRequest(`http://127.0.0.1:3000${path}`, { method: "POST", body, headers: { "content-type": "application/json" } });
}
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const nested = (depth: number) => `${'{"a":['.repeat(depth)}1${"]}".repeat(depth)}`;

describe("hostile request bodies", () => {
  it("stores a note whose text holds a NUL and a lone surrogate with U+FFFD in their place, and says so in the log", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await note(
      post(`/api/v1/incidents/${id}/notes`, '{"actor":"ana\\u0000","text":"bao says \\u0000 then \\ud800 then \\udc00 end"}'),
      params({ id }),
    );
    expect(res.status).toBe(201);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("cleaned the request body: 4 characters replaced"));
    warn.mockRestore();
    const detail = await (await getRoute(new NextRequest(`http://127.0.0.1:3000/api/v1/incidents/${id}`), params({ id }))).json();
    const stored = detail.timeline.find((e: { kind: string }) => e.kind === "note");
    // The body's actor is ignored: the note is the signed-in person's ("local" without sign-in).
    expect(stored).toMatchObject({ actor: "local", summary: "bao says \uFFFD then \uFFFD then \uFFFD end" });
  });

  it("refuses runbook-step evidence nested 3,000 deep with a 400 naming the bound", async () => {
    const session = await (
      await startSession(post(`/api/v1/incidents/${id}/runbook-sessions`, '{"actor":"ana","runbookId":"openbao-sealed-or-unreachable"}'), params({ id }))
    ).json();
    const sid = String(session.session.id);
    const deep = `{"actor":"ana","node":"${session.session.path.at(-1)}","evidence":${nested(3_000)}}`;
    expect(deep.length).toBeGreaterThan(6_000);
    const res = await step(post(`/api/v1/incidents/${id}/runbook-sessions/${sid}/steps`, deep), params({ id, sid }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid request", fields: { body: [`nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels`] } });
  });

  it("answers a JSON syntax error without quoting the body", async () => {
    const res = await note(post(`/api/v1/incidents/${id}/notes`, '{"actor":"ana","text":"secret-token-value'), params({ id }));
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toBe('{"error":"invalid request","fields":{"body":["must be JSON"]}}');
    expect(body).not.toContain("secret-token-value");
  });

  it("bounds the demo routes' bodies and never echoes them", async () => {
    const huge = `{"node":"${"x".repeat(100_000)}"}`;
    for (const res of [
      await inject(post("/api/v1/demo/scenarios/openbao-sealed", huge), params({ id: "openbao-sealed" })),
      await apiServer(post("/api/v1/demo/api-server", huge)),
    ]) {
      expect(res.status).toBe(413);
      expect((await res.text()).length).toBeLessThan(200);
    }
    const extra = await apiServer(post("/api/v1/demo/api-server", '{"state":"sideways","colour":"red"}'));
    expect(await extra.json()).toEqual({ error: "invalid request", fields: { state: ["state must be up or down"], body: ['Unrecognized key: "colour"'] } });
  });
});
