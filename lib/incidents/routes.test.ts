import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as alertmanager } from "@/app/api/v1/alerts/alertmanager/route";
import { GET as exportIncident } from "@/app/api/v1/incidents/[id]/export/route";
import { GET as listRoute } from "@/app/api/v1/incidents/route";
import { GET as getRoute } from "@/app/api/v1/incidents/[id]/route";
import { POST as acknowledge } from "@/app/api/v1/incidents/[id]/acknowledge/route";
import { POST as note } from "@/app/api/v1/incidents/[id]/notes/route";
import { POST as startSession } from "@/app/api/v1/incidents/[id]/runbook-sessions/route";
import { setDatabaseUrl } from "@/lib/env";
import { migratedDatabase } from "@/test/incident-db";

// The route handlers called as Next calls them, against a real PostgreSQL: what Alertmanager and a
// browser get back.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
});
afterAll(async () => db.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new NextRequest(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });
const get = (path: string) => new NextRequest(`http://127.0.0.1:3000${path}`);
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

const delivery = (status: "firing" | "resolved", extra: Record<string, string> = {}) => ({
  version: "4",
  groupKey: '{}:{alertname="KMSPluginTokenExpiring"}',
  status,
  receiver: "faultline",
  groupLabels: { alertname: "KMSPluginTokenExpiring" },
  commonLabels: { alertname: "KMSPluginTokenExpiring", severity: "critical" },
  commonAnnotations: {},
  externalURL: "http://alertmanager:9093",
  alerts: [
    {
      status,
      labels: { alertname: "KMSPluginTokenExpiring", severity: "critical", instance: "master-0:9464", ...extra },
      annotations: {
        summary: "KMS plugin token expires in 4 minutes",
        runbook_url: "http://faultline:3000/runbooks/kms-auth-failing",
        catalog_url: "http://faultline:3000/catalog/jwt-expired-apiserver-down",
      },
      startsAt: "2026-11-22T12:00:00.000Z",
      endsAt: status === "firing" ? "0001-01-01T00:00:00Z" : "2026-11-22T12:20:00.000Z",
      generatorURL: "http://prometheus:9090/graph?g0.expr=openbao_kms_token_ttl_seconds+%3C+600",
      fingerprint: "c0ffee1234",
    },
  ],
});

describe("POST /api/v1/alerts/alertmanager", () => {
  it("opens an incident linked to the catalog entry, and a redelivery adds nothing", async () => {
    const first = await alertmanager(post("/api/v1/alerts/alertmanager?cluster=prod", delivery("firing")));
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.outcomes).toEqual([
      { alert: "KMSPluginTokenExpiring (master-0:9464)", status: "firing", incidentId: expect.any(Number), result: "recorded", unknownLinks: [] },
    ]);
    const id = body.outcomes[0].incidentId;
    const again = await (await alertmanager(post("/api/v1/alerts/alertmanager?cluster=prod", delivery("firing")))).json();
    expect(again.outcomes[0]).toMatchObject({ result: "duplicate" });

    const detail = await (await getRoute(get(`/api/v1/incidents/${id}`), params({ id: String(id) }))).json();
    expect(detail.incident).toMatchObject({
      cluster: "prod",
      signal: "KMSPluginTokenExpiring",
      subject: "master-0:9464",
      severity: "critical",
      source: "alert",
      title: "KMS plugin token expires in 4 minutes",
    });
    expect(detail.incident.links).toEqual({
      catalog: [{ id: "jwt-expired-apiserver-down", by: "KMSPluginTokenExpiring" }],
      runbooks: [{ id: "kms-auth-failing", by: "KMSPluginTokenExpiring" }],
    });
    expect(detail.suspects[0]).toMatchObject({ id: "jwt-expired-apiserver-down", reason: expect.stringMatching(/^named by the alert KMSPluginTokenExpiring/) });
    expect(detail.timeline.filter((e: { kind: string }) => e.kind === "alert_received")).toHaveLength(1);

    const resolved = await (await alertmanager(post("/api/v1/alerts/alertmanager?cluster=prod", delivery("resolved")))).json();
    await alertmanager(post("/api/v1/alerts/alertmanager?cluster=prod", delivery("resolved")));
    expect(resolved.outcomes[0]).toMatchObject({ incidentId: id, result: "recorded" });
    const after = await (await getRoute(get(`/api/v1/incidents/${id}`), params({ id: String(id) }))).json();
    expect(after.timeline.map((e: { kind: string }) => e.kind).filter((k: string) => k.startsWith("alert_"))).toEqual(["alert_received", "alert_resolved"]);
    expect(after.members[0]).toMatchObject({ state: "ok", healthySince: "2026-11-22T12:20:00.000Z" });
  });

  it("records a link to an id the catalog does not know as unknown instead of linking it", async () => {
    const payload = delivery("firing", { faultline_catalog_id: "no-such-entry", cluster: "staging" });
    payload.alerts[0].fingerprint = "beef";
    const body = await (await alertmanager(post("/api/v1/alerts/alertmanager", payload))).json();
    expect(body.outcomes[0]).toMatchObject({ result: "recorded", unknownLinks: ["catalog/no-such-entry"] });
  });

  it("answers 400 with field errors on bad JSON or a bad shape, and 503 (Alertmanager retries) on a body over 64 MiB", async () => {
    const notJson = await alertmanager(post("/api/v1/alerts/alertmanager", "{not json"));
    expect([notJson.status, await notJson.json()]).toEqual([400, { error: "invalid request", fields: { body: ["must be JSON"] } }]);
    const bad = { ...delivery("firing"), version: "3", alerts: [{ ...delivery("firing").alerts[0], status: "burning", startsAt: "yesterday" }] };
    const shape = await alertmanager(post("/api/v1/alerts/alertmanager", bad));
    expect(shape.status).toBe(400);
    expect((await shape.json()).fields).toEqual({
      version: ['must be "4" (Alertmanager webhook version 4)'],
      "alerts.0.status": [expect.stringContaining("firing")],
      "alerts.0.startsAt": ["must be an RFC 3339 time"],
    });
    const huge = await alertmanager(post("/api/v1/alerts/alertmanager", { ...delivery("firing"), padding: "x".repeat(64 * 1024 * 1024) }));
    expect([huge.status, huge.headers.get("retry-after")]).toEqual([503, "30"]);
    expect((await huge.json()).error).toMatch(/over Faultline's limit of 67108864 bytes; nothing was recorded/);
  });
});

describe("incidents API", () => {
  it("validates filters, ids and bodies with field errors", async () => {
    const filters = await listRoute(get("/api/v1/incidents?status=opened&limit=0"));
    expect([filters.status, (await filters.json()).fields]).toEqual([
      400,
      { status: ["must be among: open, acknowledged, resolved (not opened)"], limit: ["must be 1-500"] },
    ]);
    const list = await (await listRoute(get("/api/v1/incidents?status=open,acknowledged&cluster=prod,staging"))).json();
    expect(list.incidents.map((i: { cluster: string }) => i.cluster).sort()).toEqual(["prod", "staging"]);
    expect((await getRoute(get("/api/v1/incidents/abc"), params({ id: "abc" }))).status).toBe(400);
    expect((await getRoute(get("/api/v1/incidents/424242"), params({ id: "424242" }))).status).toBe(404);
    const id = String(list.incidents.find((i: { cluster: string }) => i.cluster === "staging").id);
    // The actor is the signed-in person ("local" without sign-in): a body's actor, even the rules' own name, is ignored.
    expect((await acknowledge(post(`/api/v1/incidents/${id}/acknowledge`, { actor: "faultline" }), params({ id }))).status).toBe(200);
    const twice = await acknowledge(post(`/api/v1/incidents/${id}/acknowledge`, {}), params({ id }));
    expect([twice.status, (await twice.json()).error]).toEqual([409, expect.stringContaining("already acknowledged by local at")]);
    const n1 = await note(
      post(`/api/v1/incidents/${id}/notes`, { actor: "ana", text: "paging the identity team" }, { "idempotency-key": "n-1" }),
      params({ id }),
    );
    const n2 = await note(
      post(`/api/v1/incidents/${id}/notes`, { actor: "ana", text: "paging the identity team" }, { "idempotency-key": "n-1" }),
      params({ id }),
    );
    expect([n1.status, n2.status]).toEqual([201, 200]);
    const unknownRunbook = await startSession(post(`/api/v1/incidents/${id}/runbook-sessions`, { actor: "ana", runbookId: "no-such-runbook" }), params({ id }));
    expect([unknownRunbook.status, (await unknownRunbook.json()).fields]).toEqual([400, { runbookId: ['no runbook "no-such-runbook"'] }]);
    const started = await startSession(post(`/api/v1/incidents/${id}/runbook-sessions`, { actor: "ana" }), params({ id }));
    expect(started.status).toBe(201);
    expect((await started.json()).session).toMatchObject({ runbookId: expect.any(String), path: [expect.any(String)] });
  });

  it("exports the postmortem as Markdown or JSON", async () => {
    const list = await (await listRoute(get("/api/v1/incidents?cluster=prod"))).json();
    const id = String(list.incidents[0].id);
    const markdown = await exportIncident(get(`/api/v1/incidents/${id}/export`), params({ id }));
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toMatch(/^# Incident \d+: KMS plugin token expires in 4 minutes\n/);
    const json = await exportIncident(get(`/api/v1/incidents/${id}/export?format=json`), params({ id }));
    expect((await json.json()).incident).toMatchObject({ id: Number(id) });
    expect((await exportIncident(get(`/api/v1/incidents/${id}/export?format=pdf`), params({ id }))).status).toBe(400);
  });
});
