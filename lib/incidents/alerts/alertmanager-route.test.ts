import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/v1/alerts/alertmanager/route";
import { setDatabaseUrl } from "@/lib/env";
import { ALERTMANAGER_ALERT_LIMIT } from "./alertmanager-limits";
import { ALERT_BATCH } from "./ingest-alerts";
import { migratedDatabase } from "@/test/incident-db";

// The webhook route with bodies Alertmanager never sends but a proxy or a bug can: a bad alert among good
// ones, NULs, more alerts than the bound, a store that fails part-way. Real PostgreSQL throughout.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
});
afterAll(async () => db.close());

const post = (body: unknown) =>
  new NextRequest("http://127.0.0.1:3000/api/v1/alerts/alertmanager?cluster=edge", {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const alert = (i: number, alertname: string, extra: Record<string, unknown> = {}) => ({
  status: "firing",
  labels: { alertname, instance: `node-${i}`, severity: "warning" },
  annotations: { summary: `node-${i} is unwell` },
  startsAt: "2026-11-22T12:00:00Z",
  endsAt: "0001-01-01T00:00:00Z",
  fingerprint: `${alertname}-${i}`,
  ...extra,
});
const delivery = (alerts: unknown[], extra: Record<string, unknown> = {}) => ({
  version: "4",
  groupKey: "{}:{}",
  status: "firing",
  receiver: "faultline",
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: "http://am",
  truncatedAlerts: 0,
  alerts,
  ...extra,
});
const received = (alertname: string) =>
  db.prisma.incidentEvent.count({ where: { kind: "alert_received", payload: { path: ["alertname"], equals: alertname } } });

describe("the Alertmanager webhook with hostile deliveries", () => {
  it("refuses one bad alert alone, records the others, and cleans a NUL out of a label", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const alerts = [
      alert(0, "Mixed"),
      alert(1, "Mixed", { startsAt: "yesterday" }),
      alert(2, "Mixed", { labels: { alertname: "Mixed", instance: "node-2\u0000evil", severity: "warning" } }),
      alert(3, "Mixed"),
    ];
    const response = await POST(post(delivery(alerts)));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ received: 4, recorded: 3, refused: 1, cleaned: "1 character replaced" });
    expect(body.outcomes[1]).toEqual({
      alert: "Mixed",
      status: "firing",
      incidentId: null,
      result: "refused",
      unknownLinks: [],
      fields: { "alerts.1.startsAt": ["must be an RFC 3339 time"] },
    });
    expect(body.outcomes[2]).toMatchObject({ alert: "Mixed (node-2\uFFFDevil)", result: "recorded", cleaned: "1 character replaced" });
    expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(
      expect.stringMatching(/refused alert 1 \(Mixed, fingerprint Mixed-1\): .*must be an RFC 3339 time/),
    );
    warn.mockRestore();

    const incident = await db.prisma.incident.findFirstOrThrow({
      where: { id: body.outcomes[0].incidentId },
      include: { members: true, events: { where: { kind: "alerts_refused" } } },
    });
    expect(incident.members.map((m) => m.subject).sort()).toEqual(["node-0", "node-2\uFFFDevil", "node-3"]);
    expect(incident.events.map((e) => e.summary)).toEqual(["Faultline refused 1 alert of this group, e.g. Mixed: alerts.1.startsAt must be an RFC 3339 time"]);

    // Alertmanager sends the same group again: nothing is added twice, the refusal included.
    const again = await (await POST(post(delivery(alerts)))).json();
    expect(again).toMatchObject({ recorded: 0, duplicate: 3, refused: 1 });
    expect(await db.prisma.incidentEvent.count({ where: { incidentId: incident.id, kind: { in: ["alert_received", "alerts_refused"] } } })).toBe(4);
  });

  it("refuses an alert nested 10,000 levels deep alone", async () => {
    const deep = `${'{"x":'.repeat(10_000)}"bottom"${"}".repeat(10_000)}`; // JSON.stringify cannot build it
    const text = JSON.stringify(delivery([alert(0, "Deep", { labels: { alertname: "Deep", nested: "DEEP" } }), alert(1, "Deep")])).replace('"DEEP"', deep);
    const request = new NextRequest("http://127.0.0.1:3000/api/v1/alerts/alertmanager", { method: "POST", body: text });
    const body = await (await POST(request)).json();
    expect(body.outcomes.map((o: { result: string }) => o.result)).toEqual(["refused", "recorded"]);
    expect(body.outcomes[0].fields).toEqual({ "alerts.0.labels.nested": [expect.stringContaining("expected string")] });
  });

  it("records the same alert twice in one delivery once", async () => {
    const body = await (await POST(post(delivery([alert(0, "Twice"), alert(0, "Twice")])))).json();
    expect(body.outcomes.map((o: { result: string }) => o.result)).toEqual(["recorded", "duplicate"]);
    expect(await received("Twice")).toBe(1);
  });

  it("answers 503 with Retry-After past the alert bound, so Alertmanager keeps the group, and records nothing", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const alerts = Array.from({ length: ALERTMANAGER_ALERT_LIMIT + 1 }, (_, i) => alert(i, "TooMany"));
    const response = await POST(post(delivery(alerts)));
    expect([response.status, response.headers.get("retry-after")]).toEqual([503, "30"]);
    expect((await response.json()).error).toBe(
      "delivery of 100001 alerts is over Faultline's limit of 100000 alerts; nothing was recorded and Alertmanager keeps the group. Split the group (group_by) or set max_alerts in the receiver.",
    );
    expect(error.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringContaining("100001 alerts is over Faultline's limit"));
    error.mockRestore();
    expect(await received("TooMany")).toBe(0);
  });

  it("keeps what committed when the store fails part-way, answers 503, and the retry adds each alert once", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const n = ALERT_BATCH * 2 + 100;
    const alerts = Array.from({ length: n }, (_, i) => alert(i, "PartWay"));
    // A real PostgreSQL error in the second batch: a trigger refuses one alert's event.
    await db.prisma.$executeRawUnsafe(
      `CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN IF NEW.payload->>'fingerprint' = 'PartWay-${ALERT_BATCH + 7}' THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await db.prisma.$executeRawUnsafe(`CREATE TRIGGER poison BEFORE INSERT ON incident_events FOR EACH ROW EXECUTE FUNCTION poison()`);
    const failed = await POST(post(delivery(alerts)));
    expect([failed.status, failed.headers.get("retry-after")]).toEqual([503, "30"]);
    expect(await failed.json()).toMatchObject({
      committed: ALERT_BATCH,
      error: expect.stringMatching(new RegExp(`^stored ${ALERT_BATCH} of ${n} alerts, then: .*disk full.*the retry adds nothing twice$`)),
    });
    expect(await received("PartWay")).toBe(ALERT_BATCH);
    error.mockRestore();

    await db.prisma.$executeRawUnsafe(`DROP TRIGGER poison ON incident_events`);
    const retried = await (await POST(post(delivery(alerts)))).json();
    expect(retried).toMatchObject({ received: n, recorded: n - ALERT_BATCH, duplicate: ALERT_BATCH });
    expect(await received("PartWay")).toBe(n);
    expect(await db.prisma.incidentMember.count({ where: { signal: "PartWay" } })).toBe(n);
    const incidents = await db.prisma.incidentMember.groupBy({ by: ["incidentId"], where: { signal: "PartWay" } });
    expect(incidents).toHaveLength(1); // the first batch's incident, which the retry's alerts joined
  });
});
