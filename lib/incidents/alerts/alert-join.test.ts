import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { PLUGIN_RULES, pluginAlert } from "@/test/openbao-kms-rules";
import { emptyReport } from "@/lib/text/outside-text";
import { applyRound } from "../rounds/apply-round";
import { AlertmanagerAlert, mapAlert } from "./alertmanager";
import { ingestDelivery } from "./ingest-alerts";
import { receiveDelivery } from "./webhook";

// An alert about a watched cluster joins the incident its live signals opened when both point at the same cause,
// however long after the group window it comes, and the incident's suspects are ranked on both. A real PostgreSQL,
// the rules' own round (applyRound) and the webhook's own path (receiveDelivery).

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
});
afterAll(async () => db?.close());

const rule = (name: string) => PLUGIN_RULES.find((r) => r.alert === name)!;
const delivery = (cluster: string, name: string, series: Record<string, string>, fingerprint: string) => {
  const alert = pluginAlert(rule(name), { instance: "10.0.1.11:9464", ...series }, { cluster, startsAt: at(590).toISOString() });
  return {
    version: "4",
    groupKey: `{}:{alertname="${name}"}`,
    status: "firing",
    receiver: "faultline",
    groupLabels: {},
    commonLabels: {},
    commonAnnotations: {},
    externalURL: "http://alertmanager:9093",
    alerts: [{ status: "firing", labels: alert.labels, annotations: alert.annotations, startsAt: alert.startsAt, endsAt: "0001-01-01T00:00:00Z", fingerprint }],
  };
};
type Stored = { id: string; supports: string[] };

describe("an alert about a watched cluster", () => {
  it("joins the cluster's live incident for the same cause 10 minutes on, and the incident ranks both; another cause opens its own", async () => {
    const sealed = [signal("openbao.sealed", "openbao", "critical", "sealed (HTTP 503)")];
    for (const s of [0, 15, 30]) await applyRound(db.prisma, "prod", sealed, at(s));
    const [live] = await db.prisma.incident.findMany({ where: { cluster: "prod" } });
    expect(((live.suspects ?? []) as Stored[])[0]?.id).toBe("openbao-sealed");

    // 570 s after it opened, far past the 120 s group window: only the cause can place it there.
    const joined = await receiveDelivery(db.prisma, delivery("prod", "OpenBaoKMSMetadataProbeFailing", { status: "sealed" }, "a1"), undefined, {
      now: at(600),
    });
    expect(joined.outcomes[0]).toMatchObject({ incidentId: live.id, result: "recorded" });
    const incident = await db.prisma.incident.findUniqueOrThrow({ where: { id: live.id }, include: { members: true } });
    expect(incident.members.map((m) => `${m.signal} ${m.subject} ${m.state}`).sort()).toEqual([
      "kms.plugin.unhealthy 10.0.1.11:9464 (OpenBaoKMSMetadataProbeFailing, status=sealed) critical",
      "openbao.sealed openbao critical",
    ]);
    const [top] = (incident.suspects ?? []) as Stored[];
    expect(top.id).toBe("openbao-sealed");
    const why = top.supports.join("\n");
    expect(why).toContain('the text says "openbao_kms_transit_metadata_observation_total{status="sealed"}"');
    expect(why).toContain("openbao.sealed critical on openbao");
    expect(why).toContain("kms.plugin.unhealthy critical on 10.0.1.11:9464 (OpenBaoKMSMetadataProbeFailing, status=sealed)");

    // A refused AAD check is not what a sealed OpenBao explains: its own incident.
    const other = await receiveDelivery(db.prisma, delivery("prod", "OpenBaoKMSAADValidationErrors", { reason: "aad_mismatch" }, "a2"), undefined, {
      now: at(610),
    });
    expect(other.outcomes[0].incidentId).not.toBe(live.id);
    const opened = await db.prisma.incident.findUniqueOrThrow({ where: { id: other.outcomes[0].incidentId! } });
    expect(((opened.suspects ?? []) as Stored[])[0]?.id).toBe("aad-mismatch");
  });
});

describe("an alert the catalog came to know while it fired", () => {
  it("is resolved on the member it fired as, before the catalog mapped it", async () => {
    const body = delivery("older", "OpenBaoKMSTokenTTLShort", {}, "t1");
    // As a server without catalog/alerts.yaml recorded it: the alert name is its signal, its instance its subject.
    const fired = mapAlert(AlertmanagerAlert.parse(body.alerts[0]), { commonLabels: {} }, undefined);
    await ingestDelivery(
      db.prisma,
      {
        groupKey: body.groupKey,
        receiver: "faultline",
        status: "firing",
        truncatedAlerts: 0,
        alerts: [{ index: 0, alert: fired, cleaned: "" }],
        refused: [],
        cleaned: emptyReport(),
      },
      { now: at(600) },
    );
    const [member] = await db.prisma.incidentMember.findMany({ where: { cluster: "older" } });
    expect([member.signal, member.subject]).toEqual(["OpenBaoKMSTokenTTLShort", "10.0.1.11:9464"]);

    const resolved = { ...body, status: "resolved", alerts: [{ ...body.alerts[0], status: "resolved", endsAt: at(650).toISOString() }] };
    const answer = await receiveDelivery(db.prisma, resolved, undefined, { now: at(660) });
    expect(answer.outcomes[0]).toMatchObject({ incidentId: member.incidentId, result: "recorded" });
    expect(await db.prisma.incidentMember.findUniqueOrThrow({ where: { id: member.id } })).toMatchObject({ state: "ok", healthySince: at(650) });
  });
});
