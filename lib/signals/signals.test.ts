import { describe, expect, it } from "vitest";
import { fixtureText, repoFile } from "@/test/fixture-files";
import { parse } from "yaml";
import { sampleKmsMetrics } from "@/test/sample-metrics";
import { buildKmsMatrix, type KmsNode } from "@/lib/model/kms-matrix";
import { parseKmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import { parseOpenBaoHealth, parseTransitKey } from "@/lib/sources/probes/parse-openbao";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { readDaemonSet, readDeployment, readWebhookConfiguration } from "@/lib/sources/kube/read-workloads";
import { deriveSignals, SIGNAL_IDS, type Signal, type SignalInput } from "./signals";

const text = fixtureText;
const fixture = (name: string) => JSON.parse(text(name));
const NOW = new Date("2026-08-20T10:15:00Z");
const masters = (): KmsNode[] => ["master-0", "master-1", "master-2"].map((name) => ({ name, controlPlane: true, firstSeen: "2026-08-12T07:22:18Z" }));
const matrixOf = (cr: unknown, nodes = masters()) =>
  buildKmsMatrix({ now: NOW, intervalSeconds: 30, nodes, sources: [{ source: "kubeapiservers", view: readOperatorStatus(cr) }] });
const pick = (signals: Signal[], id: string, subject: string) => signals.find((s) => s.id === id && s.subject === subject);
const states = (signals: Signal[], id: string) => signals.filter((s) => s.id === id).map((s) => `${s.subject}:${s.state}`);

// The fixture's two healthz bodies: the 500 from master-1 and the 200 from master-0 (comment lines start with #).
const healthzBodies = () =>
  text("kas-healthz-kms-providers-master-1.txt")
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#"));

describe("deriveSignals: every id is in the catalog", () => {
  const catalogIds = new Set((parse(repoFile("catalog/signals.yaml")) as { id: string }[]).map((s) => s.id));

  it("lists only ids that catalog/signals.yaml defines", () => {
    expect(SIGNAL_IDS.filter((id) => !catalogIds.has(id))).toEqual([]);
  });

  it("emits every listed id, and nothing else, across the fixture inputs", () => {
    const cr = fixture("kubeapiserver-operator-cr.json");
    const master0 = cr.status.conditions.find((c: { type: string }) => c.type === "KMSHealthReporter_master-0");
    master0.message = master0.message.replace(/10:14:41Z/g, "10:16:00Z");
    const inputs: SignalInput[] = [
      {
        now: NOW,
        matrix: matrixOf(cr, masters().slice(0, 2)),
        kmsProviders: [{ node: "master-1", health: parseKmsProvidersHealth(500, healthzBodies()[0]) }],
        openbao: parseOpenBaoHealth(503, text("openbao-health-sealed-503.json")),
        transit: { ...parseTransitKeyOrThrow(), versionsInUse: [1] },
        webhook: readWebhookConfiguration(fixture("mutatingwebhookconfiguration-cloudtaser.json")),
        operator: readDeployment(fixture("deployment-cloudtaser-operator.json")),
        ebpf: readDaemonSet(fixture("daemonset-cloudtaser-ebpf.json")),
        bridge: { absent: true },
        wrappers: { pods: [], cut: 1 },
        webhookEndpoints: [],
        beacon: { status: 503, body: "beacon unreachable" },
        metrics: sampleKmsMetrics(NOW),
      },
      { now: NOW, webhook: null, kubeReads: [{ name: "kubeapiserver", up: false, lastError: "connect ECONNREFUSED 10.0.0.1:6443" }] },
    ];
    const emitted = new Set(inputs.flatMap((input) => deriveSignals(input)).map((s) => s.id));
    expect([...emitted].filter((id) => !catalogIds.has(id))).toEqual([]);
    expect(SIGNAL_IDS.filter((id) => !emitted.has(id))).toEqual([]);
  });
});

describe("deriveSignals from the KMS matrix at the reference time", () => {
  for (const [design, file] of [
    ["condition", "kubeapiserver-operator-cr.json"],
    ["typed", "kubeapiserver-operator-cr-typed-healthreports.json"],
  ] as const) {
    it(`${design} design: master-1/2 critical, master-2 unknown and stale, the migration a warning`, () => {
      const signals = deriveSignals({ now: NOW, matrix: matrixOf(fixture(file)) });
      expect(states(signals, "kms.plugin.unhealthy")).toEqual([
        "master-0/2:ok",
        "master-0/1:ok",
        "master-1/2:critical",
        "master-1/1:ok",
        "master-2/2:unknown",
        "master-2/1:unknown",
      ]);
      expect(pick(signals, "kms.plugin.unhealthy", "master-1/2")?.detail).toMatch(/^master-1: keyID 2 .*unhealthy: credential lacks decrypt permission$/);
      expect(pick(signals, "kms.plugin.unhealthy", "master-1/2")?.evidence).toMatchObject({ node: "master-1", keyID: "2", design });
      expect(pick(signals, "kms.plugin.unhealthy", "master-2/2")?.detail).toBe("report is 203s old (threshold 120s); last reported healthy");
      expect(states(signals, "kms.report.stale")).toEqual(["master-0:ok", "master-1:ok", "master-2:warning"]);
      expect(pick(signals, "kms.report.stale", "master-2")?.detail).toBe("report stale: lastChecked 2026-08-20T10:11:37Z is 203s old (threshold 120s)");
      expect(states(signals, "kms.report.clock-skew")).toEqual(["master-0:ok", "master-1:ok", "master-2:ok"]);
      expect(states(signals, "kms.kek.disagreement")).toEqual(["keyID 2:ok", "keyID 1:ok"]);
      expect(pick(signals, "kms.migration.in-progress", "cluster")).toMatchObject({
        state: "warning",
        detail: "keyIDs 2 and 1 reported at once: a KMS-to-KMS migration is under way",
      });
      expect(signals.some((s) => s.id === "kms.report.orphaned")).toBe(false);
    });
  }

  it("warns about an orphaned node and keeps its reports out of the plugin checks", () => {
    const signals = deriveSignals({ now: NOW, matrix: matrixOf(fixture("kubeapiserver-operator-cr.json"), masters().slice(0, 2)) });
    expect(states(signals, "kms.report.orphaned")).toEqual(["master-2:warning"]);
    expect(pick(signals, "kms.report.orphaned", "master-2")?.detail).toBe(
      "master-2 is not in the cluster but still has 2 KMS health report(s); excluded from the rollup",
    );
    expect(signals.filter((s) => s.subject.startsWith("master-2/"))).toEqual([]);
  });

  it("warns about clock skew and a kekID disagreement", () => {
    const cr = fixture("kubeapiserver-operator-cr.json");
    const byNode = (n: string) => cr.status.conditions.find((c: { type: string }) => c.type === `KMSHealthReporter_${n}`);
    byNode("master-0").message = byNode("master-0").message.replace(/10:14:41Z/g, "10:16:00Z");
    byNode("master-1").message = byNode("master-1").message.replace('"kekID":"kek-3b9a22"', '"kekID":"kek-ffffff"');
    const signals = deriveSignals({ now: NOW, matrix: matrixOf(cr) });
    expect(pick(signals, "kms.report.clock-skew", "master-0")).toMatchObject({ state: "warning" });
    expect(pick(signals, "kms.report.clock-skew", "master-0")?.detail).toMatch(
      /^lastChecked 2026-08-20T10:16:00Z is 60s ahead of the observer's clock \(allowed skew 10s\)/,
    );
    expect(pick(signals, "kms.kek.disagreement", "keyID 1")).toMatchObject({
      state: "critical",
      detail: "nodes disagree on the KEK: kek-3b9a22 on master-0; kek-ffffff on master-1; do not rotate until they agree",
    });
  });

  it("tells a node whose clock is behind from a stopped reporter by the API server's time of each write", () => {
    const typed = () => fixture("kubeapiserver-operator-cr-typed-healthreports.json");
    // master-2's reporter stopped: its last write (10:11:37 by the API server) is as old as its lastChecked.
    const stopped = deriveSignals({ now: NOW, matrix: matrixOf(typed()) });
    expect(pick(stopped, "kms.report.stale", "master-2")?.state).toBe("warning");
    expect(pick(stopped, "kms.report.clock-skew", "master-2")?.state).toBe("ok");
    // The same lastChecked, written 10 s ago by the API server's clock: the reporter runs on a clock 193 s behind.
    const cr = typed();
    cr.metadata.managedFields.find((f: { time: string }) => f.time === "2026-08-20T10:11:37Z").time = "2026-08-20T10:14:50Z";
    cr.status.encryptionStatus.healthReports.find((r: { nodeName: string; keyID: string }) => r.nodeName === "master-2" && r.keyID === "1").status =
      "Unhealthy";
    const behind = deriveSignals({ now: NOW, matrix: matrixOf(cr) });
    expect(pick(behind, "kms.report.stale", "master-2")?.state).toBe("ok");
    expect(pick(behind, "kms.report.clock-skew", "master-2")).toMatchObject({
      state: "warning",
      problem: { kind: "report-clock-behind", fields: { behindSeconds: 193 } },
    });
    expect(pick(behind, "kms.report.clock-skew", "master-2")?.detail).toMatch(
      /^lastChecked 2026-08-20T10:11:37Z is 193s behind the API server's time of the write/,
    );
    // Its reports are read, not set aside as stale.
    expect(pick(behind, "kms.plugin.unhealthy", "master-2/1")?.state).toBe("critical");
    expect(pick(behind, "kms.plugin.unhealthy", "master-2/2")?.state).toBe("ok");
    // A write stamped in the observer's future vouches for nothing: the old report stays stale.
    const forged = typed();
    forged.metadata.managedFields.find((f: { time: string }) => f.time === "2026-08-20T10:11:37Z").time = "2026-08-21T10:00:00Z";
    const future = deriveSignals({ now: NOW, matrix: matrixOf(forged) });
    expect(pick(future, "kms.report.stale", "master-2")?.state).toBe("warning");
    expect(pick(future, "kms.report.clock-skew", "master-2")?.state).toBe("ok");
  });

  it("reports cold start as unknown, a node past it as stale, and an unparseable message with its raw text", () => {
    const cr = fixture("kubeapiserver-operator-cr.json");
    const master2 = cr.status.conditions.find((c: { type: string }) => c.type === "KMSHealthReporter_master-2");
    master2.message = master2.message.slice(0, 40);
    const nodes = [
      ...masters(),
      { name: "master-3", controlPlane: true, firstSeen: "2026-08-20T10:14:30Z" },
      { name: "master-4", controlPlane: true, firstSeen: "2026-08-20T09:00:00Z" },
    ];
    const signals = deriveSignals({ now: NOW, matrix: matrixOf(cr, nodes) });
    expect(states(signals, "kms.report.stale")).toEqual(["master-0:ok", "master-1:ok", "master-3:unknown", "master-4:warning"]);
    expect(pick(signals, "kms.plugin.unhealthy", "master-2")).toMatchObject({
      state: "unknown",
      detail: "health message on kubeapiservers is unparseable: invalid JSON: input ends early after 40 characters (truncated?)",
      evidence: { node: "master-2", source: "kubeapiservers", raw: master2.message },
    });
  });

  it("emits nothing for the migration when no report is in the cluster", () => {
    expect(deriveSignals({ now: NOW, matrix: buildKmsMatrix({ now: NOW, intervalSeconds: 30, nodes: [], sources: [] }) })).toEqual([]);
  });
});

describe("deriveSignals from the kms-providers health checks", () => {
  it("is critical on master-1's 500 naming both providers, ok on master-0's 200, unknown on a 404", () => {
    const [failing, ok] = healthzBodies();
    const signals = deriveSignals({
      now: NOW,
      kmsProviders: [
        { node: "master-1", health: parseKmsProvidersHealth(500, failing) },
        { node: "master-0", health: parseKmsProvidersHealth(200, ok) },
        { node: "master-2", health: parseKmsProvidersHealth(404, "404 page not found") },
      ],
    });
    expect(states(signals, "apiserver.kms-providers.failing")).toEqual(["master-1:critical", "master-0:ok", "master-2:unknown"]);
    expect(signals[0].detail).toBe(
      "kms-providers check fails: 2_secrets: got unexpected healthz status: credential lacks decrypt permission; 2_configmaps: got unexpected healthz status: credential lacks decrypt permission",
    );
    expect(signals[2].detail).toBe("HTTP 404: no kms-providers check here (it is on /healthz and /readyz, never /livez)");
  });
});

function parseTransitKeyOrThrow() {
  const key = parseTransitKey(fixture("openbao-transit-key-read.json"));
  if (key.kind !== "transit-key") throw new Error(key.problem);
  return key;
}
