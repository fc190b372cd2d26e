import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getIncident } from "@/app/api/v1/incidents/[id]/route";
import { setDatabaseUrl } from "@/lib/env";
import { group, startAlertmanager, startReceiver, until, ALERTMANAGER_BIN, type RunningAlertmanager } from "@/test/alertmanager";
import { sweepIncidents } from "../rounds/apply-round";
import { migratedDatabase } from "@/test/incident-db";

// Debian's real Alertmanager (prometheus-alertmanager) delivers to Faultline's real webhook route on a real
// PostgreSQL: the groups it really sends, in the sizes that were lost (1,001 alerts: 400; 1.37 MB: 413).

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const running: RunningAlertmanager[] = [];
// The webhook's bearer token (FAULTLINE_WEBHOOK_TOKEN), which Alertmanager sends from http_config.authorization.
const TOKEN = randomBytes(24).toString("hex");

beforeAll(async () => {
  if (!existsSync(ALERTMANAGER_BIN)) throw new Error(`${ALERTMANAGER_BIN} is missing: apt-get install prometheus-alertmanager`);
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  receiver = await startReceiver(undefined, { token: TOKEN });
});
afterAll(async () => {
  await Promise.all(running.map((am) => am.stop()));
  await receiver?.close();
  await db?.close();
});

async function alertmanager(maxAlerts = 0, token = TOKEN) {
  const am = await startAlertmanager({
    token,
    webhookUrl: `${receiver.url}/api/v1/alerts/alertmanager?cluster=default`,
    maxAlerts,
    groupWait: "1s",
    groupInterval: "2s",
  });
  running.push(am);
  return am;
}

const count = (kind: string, alertname: string) => db.prisma.incidentEvent.count({ where: { kind, payload: { path: ["alertname"], equals: alertname } } });

describe("the real Alertmanager in front of Faultline", () => {
  it("records every alert of a 1,001-alert group and of a group over 1.37 MB, and then their resolution", { timeout: 90_000 }, async () => {
    const am = await alertmanager();
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    await am.push(group(1_001, { alertname: "NodeDiskFilling", cluster: "prod", startsAt }));
    await am.push(group(1_800, { alertname: "KMSDecryptSlow", cluster: "prod", startsAt, pad: 500 }));
    const answered = (n: number) => receiver.deliveries.some((d) => d.status === 200 && d.alerts === n);
    await until("both groups answered whole", () => answered(1_001) && answered(1_800), 60_000);
    expect(await count("alert_received", "NodeDiskFilling")).toBe(1_001);
    expect(await count("alert_received", "KMSDecryptSlow")).toBe(1_800);

    // Alertmanager may flush a group while it is still taking the alerts in; the next flush sends it whole.
    const whole = receiver.deliveries.filter((d) => d.status === 200);
    expect(whole.map((d) => d.alerts)).toEqual(expect.arrayContaining([1_001, 1_800]));
    const big = whole.find((d) => d.alerts === 1_800)!;
    expect(big.bytes).toBeGreaterThan(1_370_000);
    expect(big.body).toMatchObject({ received: 1_800, unmatched: 0, refused: 0, truncatedAlerts: 0 });
    expect(Number(big.body.recorded) + Number(big.body.duplicate)).toBe(1_800);
    expect(receiver.deliveries.filter((d) => d.status !== 200)).toEqual([]);
    const incidents = await db.prisma.incident.findMany({ where: { cluster: "prod" }, include: { _count: { select: { members: true } } } });
    expect(incidents.reduce((n, i) => n + i._count.members, 0)).toBe(2_801);

    // Resolved: Alertmanager sends the resolved alerts on the group's next flush (send_resolved: true).
    const endsAt = new Date(Date.now() - 1_000).toISOString();
    await am.push(group(1_001, { alertname: "NodeDiskFilling", cluster: "prod", startsAt, endsAt }));
    await am.push(group(1_800, { alertname: "KMSDecryptSlow", cluster: "prod", startsAt, endsAt, pad: 500 }));
    await until(
      "both groups resolved",
      async () => (await count("alert_resolved", "NodeDiskFilling")) === 1_001 && (await count("alert_resolved", "KMSDecryptSlow")) === 1_800,
      60_000,
    );
    expect(await db.prisma.incidentMember.count({ where: { cluster: "prod", state: { not: "ok" } } })).toBe(0);
    const resolved = await sweepIncidents(db.prisma, new Date(Date.now() + 301_000));
    expect(resolved.sort()).toEqual(incidents.map((i) => i.id).sort());
  });

  it("sends the configured bearer token; with a wrong one every delivery is refused with 401 and nothing is recorded", { timeout: 30_000 }, async () => {
    const am = await alertmanager(0, "not-the-webhook-token-0123456789");
    const from = receiver.deliveries.length;
    await am.push(group(2, { alertname: "WrongToken", cluster: "lab", startsAt: new Date().toISOString() }));
    await until("the delivery answered", () => receiver.deliveries.length > from);
    expect(receiver.deliveries.slice(from).map((d) => [d.status, d.body.error])).toContainEqual([401, "the bearer token is wrong"]);
    expect(await count("alert_received", "WrongToken")).toBe(0);
    await until("Alertmanager reports the refusal", () => /401/.test(am.log()));
  });

  it("passes a NUL in a label through, and Faultline stores it as U+FFFD", async () => {
    const am = await alertmanager();
    const alerts = group(3, { alertname: "NulLabel", cluster: "lab", startsAt: new Date().toISOString() });
    alerts[1].labels.instance = "node-\u0000-1";
    await am.push(alerts);
    await until("the group recorded", async () => (await count("alert_received", "NulLabel")) === 3);
    const members = await db.prisma.incidentMember.findMany({ where: { signal: "NulLabel" }, orderBy: { subject: "asc" } });
    expect(members.map((m) => m.subject)).toEqual(["node-0:9100", "node-2:9100", "node-\uFFFD-1"]);
    const events = await db.prisma.incidentEvent.findMany({ where: { kind: "alert_received", payload: { path: ["alertname"], equals: "NulLabel" } } });
    expect(events.map((e) => (e.payload as { cleaned?: string }).cleaned ?? "").sort()).toEqual(["", "", "1 character replaced"]);
  });

  it("records on the incident how many alerts Alertmanager left out when max_alerts cuts the group", async () => {
    const am = await alertmanager(50);
    const from = receiver.deliveries.length;
    await am.push(group(120, { alertname: "OpenBaoSealed", cluster: "staging", startsAt: new Date().toISOString() }));
    await until("the cut group delivered", async () => (await count("alert_received", "OpenBaoSealed")) === 50);
    await until("its gap recorded", async () => (await db.prisma.incidentEvent.count({ where: { kind: "alerts_truncated" } })) > 0);
    expect(receiver.deliveries.slice(from).map((d) => [d.status, d.alerts, d.truncatedAlerts])).toContainEqual([200, 50, 70]);
    const events = await db.prisma.incidentEvent.findMany({ where: { kind: "alerts_truncated" }, include: { incident: true } });
    expect(events).toHaveLength(1);
    expect(events[0].summary).toMatch(/^Alertmanager left out 70 alerts of this group \(it sent 50 alerts; raise max_alerts/);
    expect(events[0].incident.cluster).toBe("staging");
    expect(events[0].payload).toMatchObject({ truncatedAlerts: 70, delivered: 50, alertsHere: 50 });
    // What the incident page shows: above the timeline, and in it.
    const id = String(events[0].incidentId);
    const detail = await (await getIncident(new NextRequest(`http://127.0.0.1/api/v1/incidents/${id}`), { params: Promise.resolve({ id }) })).json();
    expect(detail.alertGaps).toEqual([expect.objectContaining({ kind: "alerts_truncated", summary: events[0].summary })]);
    expect(detail.timeline.filter((e: { kind: string }) => e.kind === "alerts_truncated")).toHaveLength(1);
  });
});
