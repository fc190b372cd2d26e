import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { applyRound } from "@/lib/incidents/rounds/apply-round";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { getIncident } from "@/lib/incidents/history/queries";
import { migratedDatabase } from "@/test/incident-db";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { pollOnce } from "./monitor";
import { pollUntil, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { persistRound } from "@/lib/store/persist";
import { rawRequest } from "@/test/demo-request";

// A hostile reporter writes a NUL and a lone surrogate into the operator CR through the API server (the
// simulator's admin write path) while OpenBao is sealed: the incident still opens and health is still stored.

let sim: DemoMonitor;
let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  [sim, db] = await Promise.all([startDemoMonitor(), migratedDatabase()]);
  prisma = db.prisma;
});
afterAll(async () => {
  await sim.stop();
  await db.close();
});

const HOSTILE = "sealed\u0000 by \ud800 reporter";

/** A merge patch of the KubeAPIServer CR's status, as a reporter with write access would send it. */
async function patchStatus(status: object): Promise<void> {
  const endpoints = sim.server.endpoints();
  const response = await rawRequest(endpoints, "/apis/operator.openshift.io/v1/kubeapiservers/cluster/status", {
    method: "PATCH",
    token: endpoints.adminToken,
    headers: { "content-type": "application/merge-patch+json" },
    body: JSON.stringify({ status }),
  });
  expect(response.status, response.body).toBe(200);
}

describe("text from a hostile cluster", () => {
  it("opens the OpenBao incident and stores health while a report and a condition hold a NUL and a lone surrogate", async () => {
    setScenario(sim.server.cluster, "openbao-sealed", true);
    const cr = sim.server.cluster.object("operator.openshift.io", "kubeapiservers", "cluster") as {
      status: { conditions: { type: string; message?: string }[] };
    };
    const conditions = cr.status.conditions.map((c) => (c.type === "NodeControllerDegraded" ? { ...c, message: `All master nodes are ready ${HOSTILE}` } : c));
    await patchStatus({
      conditions,
      encryptionStatus: {
        healthReports: [
          {
            nodeName: "master-0",
            keyID: "1",
            remoteKeyID: "kms-key:v1",
            status: "Unhealthy",
            lastCheckedTime: new Date().toISOString(),
            detail: `openbao: ${HOSTILE}`,
          },
        ],
      },
    });
    const config = parseRulesConfig({ openAfterObservations: 2, openAfterSeconds: 3600 });
    const memo = sim.entry.memo;
    const opened: number[] = [];
    let health;
    for (let round = 0; round < 3; round++) {
      health = await pollUntil(
        sim.entry,
        (h) => h.signals.some((s) => s.id === "openbao.sealed" && s.state === "critical") && JSON.stringify(h).includes("by "),
        "the sealed, hostile round",
      );
      await persistRound(prisma, health, sim.entry.sources, memo, new Date());
      opened.push(...(await applyRound(prisma, health.name, health.signals, new Date(), config)).opened);
    }
    expect(opened).toHaveLength(1);
    // The page says the source was cleaned, and what was refused (code points, never the text).
    expect(health!.sources.find((s) => s.name === "kubeapiserver")?.cleaned).toBe("4 characters replaced (U+0000, U+D800)");
    const incident = (await getIncident(prisma, opened[0]))!;
    expect(incident.incident.status).toBe("open");
    // OpenBao sealed is in it, and the plugin's member shows the hostile detail with U+FFFD where the characters were.
    const members = await prisma.incidentMember.findMany({ where: { incidentId: opened[0] } });
    expect(members.map((m) => m.signal)).toContain("openbao.sealed");
    expect(members.find((m) => m.signal === "kms.plugin.unhealthy")?.detail).toContain("sealed\uFFFD by \uFFFD reporter");

    // The signal carrying the report's detail was stored, with the refused characters shown as U+FFFD.
    const states = await prisma.signalState.findMany({ where: { cluster: "demo" } });
    expect(states.find((s) => s.signal === "openbao.sealed")?.state).toBe("critical");
    const hostile = states.filter((s) => s.detail.includes("by \uFFFD reporter"));
    expect(hostile.length).toBeGreaterThan(0);
    expect(hostile[0].detail).toContain("sealed\uFFFD by \uFFFD reporter");
    // The CR itself was stored as the source's last-known value, condition message included.
    const snapshot = await prisma.sourceSnapshot.findUniqueOrThrow({ where: { cluster_source: { cluster: "demo", source: "kubeapiserver" } } });
    expect(JSON.stringify(snapshot.value)).toContain("All master nodes are ready sealed\uFFFD by \uFFFD reporter");
  }, 60_000);

  it("shows a signal the database refuses as a problem of that signal on the health it serves, and stores the rest", async () => {
    // A reporter names a node 8,000 incompressible characters long: no character is wrong, but PostgreSQL's index refuses it.
    const huge = randomBytes(6000).toString("base64");
    await patchStatus({
      encryptionStatus: {
        healthReports: [
          { nodeName: huge, keyID: "1", remoteKeyID: "kms-key:v1", status: "Unhealthy", lastCheckedTime: new Date().toISOString(), detail: "plugin down" },
        ],
      },
    });
    const health = await pollUntil(sim.entry, (h) => h.signals.some((s) => s.subject.includes(huge)), "the signal about the huge node");
    await persistRound(prisma, health, sim.entry.sources, sim.entry.memo, new Date());
    const after = await pollOnce(sim.entry);
    expect(after.refused).toEqual([
      expect.objectContaining({ stage: "store", unit: expect.stringMatching(/…\[clipped\]$/), reason: expect.stringMatching(/index row size/) }),
    ]);
    const others = await prisma.signalState.count({ where: { cluster: "demo", NOT: { subject: { contains: huge } } } });
    expect(others).toBe(after.signals.filter((s) => !s.subject.includes(huge)).length);
  }, 60_000);
});
