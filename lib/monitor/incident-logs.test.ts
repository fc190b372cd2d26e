import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { listLogSources } from "@/lib/incidents/evidence/log-evidence";
import { addPastedEvidence } from "@/lib/incidents/evidence/paste";
import { getIncident } from "@/lib/incidents/history/queries";
import { judgeRound } from "@/lib/incidents/rounds/judge";
import { commitRound, newMemo } from "@/lib/store/persist";
import { pollUntil, settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { migratedDatabase } from "@/test/incident-db";
import { DOCTOR_CONFIG_UNSAFE } from "@/test/plugin-reports";
import { WAIT_SLACK } from "@/test/wait";
import { readIncidentLogs, readLogsWhenOpened } from "./incident-logs";

// An incident opened on the demo cluster gets the logs of the nodes it names as evidence: the real monitor round,
// the real client reading pods/log from the simulated API server, the real PostgreSQL. Each case has its own
// cluster name; the figures (bytes read, time from reading to the new ranking) are printed, not asserted.

let sim: DemoMonitor;
let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  [sim, db] = await Promise.all([startDemoMonitor(), migratedDatabase()]);
});
afterAll(async () => {
  await sim?.stop();
  await db?.close();
});

const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });
/** Waits for what the database shows (the logs are read off the round, on their own time). */
async function until(check: () => Promise<boolean>, what: string, ms = 10_000 * WAIT_SLACK): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const failing = (h: Awaited<ReturnType<typeof settledPoll>>, subject: string) =>
  h.signals.some((s) => s.id === "kms.plugin.unhealthy" && s.subject === subject && s.state !== "ok");

/** One round of the real monitor, committed and judged as the leader does; the incidents it opened. */
async function openIncident(cluster: string, subject: string): Promise<number[]> {
  const health = await pollUntil(sim.entry, (h) => failing(h, subject), `${subject} failing`);
  const committed = await commitRound(db.prisma, { ...health, name: cluster }, sim.entry.sources, newMemo(), new Date());
  let opened: number[] = [];
  await judgeRound(db.prisma, committed, config, (ids) => {
    opened = ids;
    readLogsWhenOpened(db.prisma, sim.entry, ids, "faultline");
  });
  return opened;
}

describe("the logs of an incident's nodes as its evidence", () => {
  it("a crash loop at opening: the signal says only 'connection refused'; the previous instance's panic makes the crash loop the top suspect", async () => {
    const flipToError = async () => {
      // The flapping plugin alternates at each report: report until the monitor sees it failing.
      for (let i = 0; i < 4; i++) {
        sim.server.cluster.report();
        if (failing(await settledPoll(sim.entry), "master-1/1")) return;
      }
    };
    setScenario(sim.server.cluster, "kms-plugin-crash-loop", true, { node: "master-1" });
    try {
      await flipToError();
      const [id] = await openIncident("logs-crash", "master-1/1");
      expect(id).toBeDefined();
      const opened = await db.prisma.incidentEvent.findFirstOrThrow({ where: { incidentId: id, kind: "status_change" } });
      // Read off the round: the round returned before the logs are in; they arrive on their own.
      await until(async () => (await db.prisma.incidentEvidence.count({ where: { incidentId: id } })) >= 3, "the log evidence");
      const events = await db.prisma.incidentEvent.findMany({ where: { incidentId: id }, orderBy: { id: "asc" } });
      const rankings = events.filter((e) => e.kind === "suspects_changed");
      expect(rankings.length).toBeGreaterThanOrEqual(2);
      const before = (rankings[0].payload as { after: { id: string }[] }).after.map((s) => s.id);
      expect(before[0]).not.toBe("kms-plugin-crash-loop");
      const detail = (await getIncident(db.prisma, id))!;
      expect(detail.suspects[0].id).toBe("kms-plugin-crash-loop");
      expect(detail.suspects[0].supports?.join("\n")).toMatch(/on kube-apiserver-master-1 kms-plugin-1 \(previous instance\)/);

      const { sources, bytes } = await listLogSources(db.prisma, id);
      expect(sources.map((s) => s.source).sort()).toEqual([
        "kube-apiserver-master-1 kms-plugin-1",
        "kube-apiserver-master-1 kms-plugin-1 (previous instance)",
        "kube-apiserver-master-1 kube-apiserver",
      ]);
      const previous = sources.find((s) => s.source.endsWith("(previous instance)"))!;
      expect(previous.read!.classes.map((c) => c.id)).toEqual(expect.arrayContaining(["go-runtime-panic", "plugin-stale-socket-reclaimed"]));
      // Telling lines first: the panic before the lines that say nothing the catalog knows.
      expect(previous.read!.lines[0].classes.length).toBeGreaterThan(0);
      const again = await readIncidentLogs(db.prisma, id, "rosa@example.org", () => sim.entry);
      console.log(
        `[figures] crash loop: ${bytes} bytes of log read in ${sources.length} sources at opening, in the ranking ${rankings.at(-1)!.at.getTime() - opened.at.getTime()} ms after the opening round's time; a second read: ${again.bytes} bytes, read and ranked in ${again.tookMs} ms, of which readings in hand -> new ranking committed ${again.rankMs} ms`,
      );
    } finally {
      setScenario(sim.server.cluster, "kms-plugin-crash-loop", false);
    }
  }, 120_000);

  it("OpenBao sealed: every named node's plugin says 'sealed' in its own words, and a responder's second read replaces the first", async () => {
    setScenario(sim.server.cluster, "openbao-sealed", true);
    try {
      const [id] = await openIncident("logs-sealed", "master-0/1");
      await until(async () => (await db.prisma.incidentEvidence.count({ where: { incidentId: id } })) >= 2, "the log evidence");
      await until(async () => (await db.prisma.incidentEvent.count({ where: { incidentId: id, kind: "evidence_added" } })) >= 2, "the first reading");
      // The plugin probes every 30 s: a second read after its next probe holds more, and replaces the first.
      sim.server.cluster.restarted = new Date(Date.now() - 65_000);
      const second = await readIncidentLogs(db.prisma, id, "rosa@example.org", () => sim.entry);
      const { sources, bytes } = await listLogSources(db.prisma, id);
      expect(await db.prisma.incidentEvidence.count({ where: { incidentId: id } })).toBe(sources.length);
      const plugin = sources.find((s) => s.source === "kube-apiserver-master-0 kms-plugin-1")!;
      expect(plugin.read).toMatchObject({
        actor: "rosa@example.org",
        classes: expect.arrayContaining([expect.objectContaining({ id: "plugin-log-openbao-sealed" })]),
      });
      expect(plugin.read!.lines.filter((l) => l.classes.includes("plugin-log-openbao-sealed")).length).toBeGreaterThanOrEqual(2);
      expect(second.bytes).toBe(bytes);
      const top = (await getIncident(db.prisma, id))!.suspects[0];
      expect(top.id).toBe("openbao-sealed");
      console.log(
        `[figures] OpenBao sealed: ${bytes} bytes of log read in ${sources.length} sources; a responder's read took ${second.tookMs} ms, of which readings in hand -> new ranking committed ${second.rankMs} ms`,
      );
    } finally {
      setScenario(sim.server.cluster, "openbao-sealed", false);
    }
  }, 120_000);

  it("the plugin down, its logs read: a pasted doctor report naming an unsafe config file moves that cause first, the dead plugin a view of it", async () => {
    setScenario(sim.server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    try {
      const [id] = await openIncident("logs-plugin-down", "master-1/1");
      await until(async () => (await db.prisma.incidentEvent.count({ where: { incidentId: id, kind: "evidence_added" } })) >= 1, "the first reading");
      // The killed plugin's instances each reclaimed the socket the one before left: a stale socket leads the suspects.
      expect((await getIncident(db.prisma, id))!.suspects[0].id).not.toBe("kms-config-permissions-unsafe");
      const pasted = await addPastedEvidence(db.prisma, id, { actor: "local", text: DOCTOR_CONFIG_UNSAFE });
      expect(pasted.summary).toContain("This moved Plugin configuration file permissions unsafe to the top");
      // serve exits on the same validation before it binds its socket: the plugin down is that cause seen from kube-apiserver.
      const [top] = (await getIncident(db.prisma, id))!.suspects;
      expect(top.id).toBe("kms-config-permissions-unsafe");
      expect(top.facets?.map((f) => f.id)).toContain("kms-plugin-unavailable");
      expect(top.supports).toContain(
        'the text says "file permissions unsafe" (A file or directory the plugin uses has unsafe permissions or is a symlink) on the output pasted by local',
      );
    } finally {
      setScenario(sim.server.cluster, "kms-plugin-unavailable", false);
    }
  }, 120_000);

  it("a source the credentials may not read is refused visibly, and its last good reading stays", async () => {
    setScenario(sim.server.cluster, "openbao-sealed", true);
    try {
      const [id] = await openIncident("logs-forbidden", "master-2/1");
      await until(async () => (await db.prisma.incidentEvidence.count({ where: { incidentId: id } })) >= 2, "the log evidence");
      sim.server.readForbidden = ["pods/log"];
      const read = await readIncidentLogs(db.prisma, id, "rosa@example.org", () => sim.entry);
      expect(read.bytes).toBe(0);
      expect(read.sources.length).toBeGreaterThanOrEqual(2);
      for (const source of read.sources) expect(source.refused).toMatch(/^403 pods "kube-apiserver-master-\d" is forbidden: User /);
      const { sources } = await listLogSources(db.prisma, id);
      const plugin = sources.find((s) => s.source === "kube-apiserver-master-2 kms-plugin-1")!;
      expect(plugin.refused?.reason).toMatch(/cannot get resource "pods\/log" in API group "" in the namespace "openshift-kube-apiserver"$/);
      expect(plugin.read?.actor).toBe("faultline");
      const unread = await db.prisma.incidentEvent.findMany({ where: { incidentId: id, kind: "logs_unread" } });
      expect(unread.map((e) => e.summary)).toContain(
        'kube-apiserver-master-2 kms-plugin-1: could not be read (403 pods "kube-apiserver-master-2" is forbidden: User "system:serviceaccount:faultline:faultline-readonly" cannot get resource "pods/log" in API group "" in the namespace "openshift-kube-apiserver")'.slice(
          0,
          300,
        ),
      );
    } finally {
      sim.server.readForbidden = [];
      setScenario(sim.server.cluster, "openbao-sealed", false);
    }
  }, 120_000);
});
