import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { setDatabaseUrl } from "@/lib/env";
import { startAlertmanager, startReceiver, until, ALERTMANAGER_BIN, type PostableAlert, type RunningAlertmanager } from "@/test/alertmanager";
import { migratedDatabase } from "@/test/incident-db";
import { PLUGIN_RULES, pluginAlert } from "@/test/openbao-kms-rules";

// Debian's Alertmanager delivers every rule of the KMS plugin's own rules file (test/openbao-kms-rules.ts), with label
// values the plugin really writes, to Faultline's webhook route on a real PostgreSQL. Each alert is in a cluster of its
// own, so each incident holds one alert and its suspects are that alert's alone.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let am: RunningAlertmanager;
const TOKEN = randomBytes(24).toString("hex");

beforeAll(async () => {
  if (!existsSync(ALERTMANAGER_BIN)) throw new Error(`${ALERTMANAGER_BIN} is missing: apt-get install prometheus-alertmanager`);
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  receiver = await startReceiver(undefined, { token: TOKEN });
  am = await startAlertmanager({ token: TOKEN, webhookUrl: `${receiver.url}/api/v1/alerts/alertmanager`, groupWait: "1s", groupInterval: "2s" });
});
afterAll(async () => {
  await am?.stop();
  await receiver?.close();
  await db?.close();
});

interface Case {
  alert: string;
  /** The series labels the rule keeps: its cause labels' values, as the plugin writes them. */
  series?: Record<string, string>;
  /** The one failure mode that fits, where exactly one does. */
  first?: string;
}

// Values from the plugin's code: internal/status/controller.go probeStatus, internal/auth/manager.go authStatus,
// internal/kmsv2/observability.go (reasons, methods); catalog/alerts.yaml cites each.
const CASES: Case[] = [
  { alert: "OpenBaoKMSStatusCacheStale" },
  { alert: "OpenBaoKMSCircuitBreakerOpen" },
  { alert: "OpenBaoKMSMetadataProbeFailing", series: { status: "sealed" }, first: "openbao-sealed" },
  { alert: "OpenBaoKMSMetadataProbeFailing", series: { status: "not_found" }, first: "transit-key-deleted" },
  { alert: "OpenBaoKMSMetadataProbeFailing", series: { status: "connection_failed" }, first: "openbao-unavailable" },
  { alert: "OpenBaoKMSMetadataProbeFailing", series: { status: "permission_denied" } },
  { alert: "OpenBaoKMSMetadataProbeFailing", series: { status: "dns_failed" } },
  { alert: "OpenBaoKMSMetadataProbeFailing", series: { status: "timeout" } },
  { alert: "OpenBaoKMSOpenBaoErrorRateHigh" },
  { alert: "OpenBaoKMSAuthFailures", series: { status: "jwt_expired" }, first: "jwt-expired-apiserver-down" },
  { alert: "OpenBaoKMSAuthFailures", series: { status: "cert_expired" }, first: "auth-certificate-expired" },
  { alert: "OpenBaoKMSAuthFailures", series: { status: "jwt_invalid" } },
  { alert: "OpenBaoKMSAuthFailures", series: { status: "auth_failed" } },
  { alert: "OpenBaoKMSTokenTTLShort" },
  { alert: "OpenBaoKMSKeyIDHashDiverged" },
  { alert: "OpenBaoKMSRotationPendingStuck" },
  { alert: "OpenBaoKMSAADValidationErrors", series: { reason: "aad_mismatch" }, first: "aad-mismatch" },
  { alert: "OpenBaoKMSAADValidationErrors", series: { reason: "annotation_invalid" }, first: "annotations-missing-or-malformed" },
  { alert: "OpenBaoKMSAADValidationErrors", series: { reason: "aad_missing" }, first: "annotations-missing-or-malformed" },
  { alert: "OpenBaoKMSUnknownKeyIDErrors", first: "unknown-key-id-on-decrypt" },
  { alert: "OpenBaoKMSGRPCLatencyHigh", series: { method: "decrypt" } },
  { alert: "OpenBaoKMSConcurrencyRejected", series: { method: "encrypt" } },
  { alert: "OpenBaoKMSStaleSocketRemoved" },
];
const clusterOf = (i: number) => `plugin-${i}`;
const INSTANCE = "10.0.1.11:9464";

function alerts(startsAt: string, endsAt?: string): PostableAlert[] {
  return CASES.map((c, i) => {
    const rule = PLUGIN_RULES.find((r) => r.alert === c.alert)!;
    return pluginAlert(rule, { instance: INSTANCE, ...c.series }, { cluster: clusterOf(i), startsAt, endsAt });
  });
}
const received = () => db.prisma.incidentEvent.count({ where: { kind: "alert_received", incident: { cluster: { startsWith: "plugin-" } } } });
const resolved = () => db.prisma.incidentEvent.count({ where: { kind: "alert_resolved", incident: { cluster: { startsWith: "plugin-" } } } });
type Stored = { id: string; supports?: string[] };

describe("the KMS plugin's own alerts, delivered by the real Alertmanager", () => {
  it("covers every rule of the plugin's rules file", () => {
    expect(new Set(CASES.map((c) => c.alert))).toEqual(new Set(PLUGIN_RULES.map((r) => r.alert)));
  });

  it(
    "opens one incident per alert with the signal its entry restates, names the one failure mode that fits first, and resolves each member",
    { timeout: 120_000 },
    async () => {
      const startsAt = new Date(Date.now() - 60_000).toISOString();
      await am.push(alerts(startsAt));
      // Each alert is a group of its own; a delivery is answered once its incidents' suspects are ranked.
      await until("every group answered", () => receiver.deliveries.filter((d) => d.status === 200).length >= CASES.length, 90_000);
      expect(await received()).toBe(CASES.length);
      expect(receiver.deliveries.filter((d) => d.status !== 200)).toEqual([]);

      const entries = new Map(getCatalog().alerts.flatMap((e) => e.alerts.map((name) => [name, e] as const)));
      const incidents = await db.prisma.incident.findMany({ where: { cluster: { startsWith: "plugin-" } }, include: { members: true, events: true } });
      expect(incidents).toHaveLength(CASES.length);
      for (const [i, c] of CASES.entries()) {
        const incident = incidents.find((x) => x.cluster === clusterOf(i))!;
        const entry = entries.get(c.alert)!;
        const [member] = incident.members;
        expect(incident.members, c.alert).toHaveLength(1);
        // The member carries the signal the alert restates, and what its rule reads with its cause quoted.
        expect(member.signal, c.alert).toBe(entry.signal ?? c.alert);
        const reads = entry.reads.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => c.series?.[name] ?? "");
        expect(member.texts[0], c.alert).toBe(reads);
        expect(member.texts[1], c.alert).toMatch(new RegExp(`^${c.alert}\\{cluster="${clusterOf(i)}",`));
        const event = incident.events.find((e) => e.kind === "alert_received")!;
        expect(event.payload, c.alert).toMatchObject({ catalogAlert: entry.id, unknownWords: [] });
        const suspects = (incident.suspects ?? []) as Stored[];
        if (c.first) expect(suspects[0]?.id, `${c.alert} ${JSON.stringify(c.series ?? {})}`).toBe(c.first);
        // Faultline has no check for a rotation that does not promote, and the alert's words name no failure mode.
        if (c.alert === "OpenBaoKMSRotationPendingStuck") expect(suspects).toEqual([]);
        else expect(suspects.length, c.alert).toBeGreaterThan(0);
      }
      // The cause quoted is what the suspect's reason cites.
      const sealed = incidents.find((x) => x.cluster === clusterOf(CASES.findIndex((c) => c.series?.status === "sealed")))!;
      expect(((sealed.suspects ?? []) as Stored[])[0].supports?.join(" ")).toContain('openbao_kms_transit_metadata_observation_total{status="sealed"}');

      // Resolved: each resolution finds the member its alert fired.
      await am.push(alerts(startsAt, new Date(Date.now() - 1_000).toISOString()));
      await until("every alert resolved", async () => (await resolved()) === CASES.length, 90_000);
      const members = await db.prisma.incidentMember.findMany({ where: { cluster: { startsWith: "plugin-" } } });
      expect(members.map((m) => m.state)).toEqual(CASES.map(() => "ok"));
      expect(receiver.deliveries.filter((d) => Number(d.body.unmatched ?? 0) > 0)).toEqual([]);
    },
  );

  it("says which words it did not understand, and still reads the ones it did", { timeout: 60_000 }, async () => {
    const startsAt = new Date().toISOString();
    const from = receiver.deliveries.length;
    await am.push([
      // A status a later plugin might write: the rule is known, the value is not.
      pluginAlert(
        PLUGIN_RULES.find((r) => r.alert === "OpenBaoKMSMetadataProbeFailing")!,
        { instance: INSTANCE, status: "quota_exhausted" },
        { cluster: "words-a", startsAt },
      ),
      // A rule someone wrote on the plugin's log lines: its name is unknown, one of its labels is the plugin's error class.
      {
        labels: {
          alertname: "BaoKmsDecryptTrouble",
          cluster: "words-b",
          instance: INSTANCE,
          error_class: "openbao_sealed",
          phase: "rollout",
          severity: "critical",
        },
        annotations: { summary: "Decrypts through the KMS plugin fail" },
        startsAt,
      },
    ]);
    const payloadOf = async (cluster: string) =>
      (await db.prisma.incidentEvent.findFirst({ where: { kind: "alert_received", incident: { cluster } } }))?.payload as Record<string, unknown> | undefined;
    // The webhook answers once suspects are ranked; the outcomes name each alert by its name and target.
    const answered = (name: string) =>
      receiver.deliveries
        .slice(from)
        .some(
          (d) =>
            d.status === 200 && (d.body.outcomes as { alert: string; status: string }[]).some((o) => o.status === "firing" && o.alert.startsWith(`${name} (`)),
        );
    await until("both groups answered", () => answered("OpenBaoKMSMetadataProbeFailing") && answered("BaoKmsDecryptTrouble"));
    expect(await payloadOf("words-a")).toMatchObject({ catalogAlert: "openbao-kms-metadata-probe-failing", unknownWords: ['status="quota_exhausted"'] });
    expect(await payloadOf("words-b")).toMatchObject({ catalogAlert: null, unknownWords: ["BaoKmsDecryptTrouble", 'phase="rollout"'] });
    const [b] = await db.prisma.incident.findMany({ where: { cluster: "words-b" } });
    expect(((b.suspects ?? []) as Stored[])[0]?.id).toBe("openbao-sealed");
  });
});
