import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "@/lib/catalog/load";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { setDatabaseUrl } from "@/lib/env";
import { memberKeyOf } from "@/lib/incidents/rules/member-key";
import { startMonitor, type Monitored } from "@/lib/monitor/monitor";
import { startPrometheus, type RunningPrometheus } from "@/lib/sources/prometheus/process";
import { ALERTMANAGER_BIN, startAlertmanager, startReceiver, until, type RunningAlertmanager } from "@/test/alertmanager";
import { startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { migratedDatabase } from "@/test/incident-db";
import { requirePrometheus } from "@/test/prometheus";
import { renderRuleFiles } from "./alert-rules";
import { renderAllMetrics } from "./collectors";

// The whole loop with the real things, on loopback: Faultline's monitor reads the demo cluster and opens its
// incident; Debian's Prometheus scrapes Faultline's /metrics and evaluates the shipped rules; Debian's Alertmanager
// delivers the alert to Faultline's webhook, which must put it in the SAME incident (not a new one, not a reopened one).
// The rules are the shipped ones rendered with `for: 10s` instead of 1m (the only change), scraped and evaluated every second.

const TOKEN = randomBytes(24).toString("hex");
const SIGNAL_FOR = "10s";
let db: Awaited<ReturnType<typeof migratedDatabase>>;
let sim: DemoMonitor;
let monitor: Monitored;
let metrics: Server;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let am: RunningAlertmanager;
let prometheus: RunningPrometheus;
let dir: string;

beforeAll(async () => {
  requirePrometheus();
  if (!existsSync(ALERTMANAGER_BIN)) throw new Error(`${ALERTMANAGER_BIN} is missing: apt-get install prometheus-alertmanager`);
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  sim = await startDemoMonitor();
  // The monitor as `npm start` runs it (lock, rounds, commit, incident rules), every second.
  monitor = startMonitor(sim.entry.target, { simulated: true, pollSeconds: 1 });
  // Faultline's /metrics, as the route serves it (FAULTLINE_AUTH=none: no token).
  metrics = createServer((req, res) => {
    if (req.url !== "/metrics") return void res.writeHead(404).end();
    void renderAllMetrics().then((m) => res.writeHead(200, { "Content-Type": m.contentType }).end(m.text));
  });
  await new Promise<void>((resolve) => metrics.listen(0, "127.0.0.1", resolve));
  receiver = await startReceiver(undefined, { token: TOKEN });
  am = await startAlertmanager({ token: TOKEN, webhookUrl: `${receiver.url}/api/v1/alerts/alertmanager`, groupWait: "1s", groupInterval: "2s" });
  dir = await mkdtemp(path.join(tmpdir(), "faultline-loop-"));
  await writeFile(path.join(dir, "faultline-rules.yml"), renderRuleFiles(loadCatalog(), { signalFor: SIGNAL_FOR }).rules);
  const faultline = `127.0.0.1:${(metrics.address() as AddressInfo).port}`;
  prometheus = await startPrometheus({
    dataDir: path.join(dir, "prometheus"),
    config: [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "  external_labels:",
      `    faultline_url: http://${faultline}`,
      `rule_files: [${JSON.stringify(path.join(dir, "faultline-rules.yml"))}]`,
      "alerting:",
      "  alertmanagers:",
      `    - static_configs: [{ targets: [${JSON.stringify(new URL(am.url).host)}] }]`,
      "scrape_configs:",
      "  - job_name: faultline",
      "    honor_labels: true",
      `    static_configs: [{ targets: [${JSON.stringify(faultline)}] }]`,
    ].join("\n"),
  });
}, 120_000);

afterAll(async () => {
  if (monitor?.timer) clearInterval(monitor.timer);
  for (const w of monitor?.watches?.values() ?? []) w.stop();
  await prometheus?.stop();
  await am?.stop();
  await receiver?.close();
  await new Promise((resolve) => metrics?.close(resolve));
  await sim?.stop();
  await db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SEALED = { cluster: "demo", signal: "openbao.sealed", subject: "openbao" };

describe("Faultline in the alerting loop (real Prometheus and Alertmanager)", () => {
  it(
    "an OpenBao sealed on the demo cluster pages through Prometheus and Alertmanager, and the alert joins the incident Faultline opened",
    { timeout: 120_000 },
    async () => {
      // Baseline: Prometheus sees Faultline's signals, all quiet.
      const query = async (q: string) =>
        ((await (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { data: { result: { value: [number, string] }[] } })
          .data.result;
      await until(
        "Prometheus scraped openbao.sealed ok",
        async () => (await query('faultline_signal_state{signal="openbao.sealed",state="ok"} == 1')).length === 1,
        30_000,
      );

      setScenario(sim.server.cluster, "openbao-sealed", true);
      const opened = async () => db.prisma.incident.findFirst({ where: { cluster: "demo", members: { some: { memberKey: memberKeyOf(SEALED) } } } });
      await until("Faultline's monitor opened the incident", async () => Boolean(await opened()), 30_000);
      const incident = (await opened())!;
      expect(incident.source).toBe("signal");

      const delivered = () =>
        receiver.deliveries.flatMap((d) =>
          ((d.body.outcomes ?? []) as { alert: string; incidentId?: number; result?: string }[]).map((o) => ({ ...o, answered: d.status })),
        );
      const sealedAlert = (o: { alert: string }) => o.alert === "FaultlineOpenbaoSealed (openbao)";
      await until("Alertmanager delivered FaultlineOpenbaoSealed", () => delivered().some(sealedAlert), 60_000).catch(async (error: Error) => {
        const alerts = await (await fetch(`${prometheus.url}/api/v1/alerts`)).text();
        const rules = await (await fetch(`${prometheus.url}/api/v1/rules?type=alert`)).text();
        throw new Error(
          `${error.message}\nPrometheus alerts: ${alerts.slice(0, 2000)}\nrule health: ${rules.match(/"lastError":"[^"]+"/g)?.slice(0, 3)}\nAlertmanager: ${am.log().slice(-2000)}\ndeliveries: ${JSON.stringify(receiver.deliveries).slice(0, 1000)}`,
        );
      });
      expect(delivered().find(sealedAlert)).toMatchObject({ answered: 200, status: "firing", result: "recorded", incidentId: incident.id });

      // The same incident, still open and never reopened; no other incident holds the fingerprint.
      const after = await db.prisma.incident.findUniqueOrThrow({ where: { id: incident.id } });
      expect(after).toMatchObject({ status: "open", reopenCount: 0 });
      expect(await db.prisma.incident.count({ where: { memberKey: memberKeyOf(SEALED) } })).toBeLessThanOrEqual(1);
      expect(await db.prisma.incidentMember.count({ where: { memberKey: memberKeyOf(SEALED) } })).toBe(1);
      const event = await db.prisma.incidentEvent.findFirstOrThrow({
        where: { incidentId: incident.id, kind: "alert_received", payload: { path: ["alertname"], equals: "FaultlineOpenbaoSealed" } },
      });
      const payload = event.payload as { alertname: string; labels: Record<string, string>; annotations: Record<string, string> };
      expect(payload.alertname).toBe("FaultlineOpenbaoSealed");
      expect(payload.labels).toMatchObject({ faultline_cluster: "demo", faultline_signal: "openbao.sealed", faultline_subject: "openbao" });
      // runbook_url and the cluster's page from Prometheus' external label faultline_url, not the default.
      const port = (metrics.address() as AddressInfo).port;
      expect(payload.annotations.runbook_url).toBe(`http://127.0.0.1:${port}/catalog/openbao-sealed`);
      expect(payload.annotations.dashboard_url).toBe(`http://127.0.0.1:${port}/clusters/demo`);

      // Every Faultline alert that came (the plugins fail with OpenBao) went to that incident as well.
      const faultlineAlerts = delivered().filter((o) => o.alert.startsWith("Faultline"));
      expect(faultlineAlerts.filter((o) => o.incidentId !== incident.id || o.answered !== 200)).toEqual([]);
      expect(await db.prisma.incident.count({ where: { cluster: "demo", source: "alert" } })).toBe(0);
      // Each alert met the member Faultline's own check made (same cluster, signal and subject): none made one of its own.
      expect(await db.prisma.incidentMember.findMany({ where: { source: "alert" }, select: { memberKey: true } })).toEqual([]);
      setScenario(sim.server.cluster, "openbao-sealed", false);
    },
  );
});
