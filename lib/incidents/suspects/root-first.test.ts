import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { applyWorld, type World } from "@/test/diagnosis/world";
import { rootsOf } from "../rounds/apply-round";
import { evidenceTexts, namesACause, neededSignals, rankSuspects } from "./suspects";

// A redacted symptom never outranks a firing root signal: once the grouping rules put a root signal in the incident of
// symptoms that say only "failed" (docs/incidents.md, "Root causes and redacted symptoms"), the incident's ranking names
// the failure mode that needs it. The demo cluster's real API server and OpenBao read by the real monitor; the ranking
// as refreshSuspects runs it (the active signals with their texts, the needed signals seen ok).

let sim: DemoMonitor;
beforeAll(async () => {
  sim = await startDemoMonitor();
});
afterAll(() => sim?.stop());

// What the plugin's Status says whatever the cause (dc-tec/openbao-kubernetes-kms internal/kmsv2/server.go, HealthUnhealthy).
const redacted = [{ node: "*", health: "unhealthy" as const, detail: "unhealthy" }];
const stopped = ["master-0", "master-1", "master-2"].map((node) => ({ node, reporterRunning: false }));

const ROOTS: [string, string, World][] = [
  ["OpenBao sealed", "openbao.sealed", { openbao: "sealed" }],
  ["OpenBao unreachable", "openbao.unreachable", { openbao: "unreachable" }],
  ["OpenBao failing over", "openbao.standby", { openbao: "standby" }],
  ["the Transit key deleted", "transit.key.missing", { transit: { exists: false } }],
];
// Only kube-apiserver's check says anything (the reporters stopped), or the plugins' own reports say "unhealthy" too.
const VIEWS: [string, World][] = [
  ["the kms-providers check alone", { plugins: redacted, nodeState: stopped }],
  ["the check and every plugin's report", { plugins: redacted }],
];

describe("a firing root signal beside redacted symptoms", () => {
  for (const [cause, root, world] of ROOTS)
    for (const [view, symptoms] of VIEWS)
      it(`${cause}, seen with ${view}: the failure mode that needs ${root} ranks first`, async () => {
        applyWorld(sim.server.cluster, { ...world, ...symptoms });
        try {
          const health = await settledPoll(sim.entry);
          const firing = health.signals.filter((s) => s.state !== "ok");
          // A standby answering is a warning: it joins an incident only with openOnWarning, and then ranks so.
          expect(["critical", "warning"]).toContain(firing.find((s) => s.id === root)?.state);
          const check = firing.find((s) => s.id === "apiserver.kms-providers.failing")!;
          expect(check.detail).toMatch(/got unexpected healthz status: unhealthy/);
          // Every symptom is redacted: only the root signal's own reading could name a cause.
          expect(firing.filter((s) => s.id !== root && namesACause([s.detail, ...evidenceTexts(s)])).map((s) => s.id)).toEqual([]);
          const needed = neededSignals();
          const [top] = rankSuspects({
            active: firing.map((s) => ({ signal: s.id, subject: s.subject, state: s.state, detail: s.detail, texts: evidenceTexts(s) })),
            healthy: health.signals.filter((s) => s.state === "ok" && needed.has(s.id)).map((s) => ({ signal: s.id, subject: s.subject })),
          });
          expect(rootsOf(root)).toContain(top.id);
        } finally {
          applyWorld(sim.server.cluster, {});
          await settledPoll(sim.entry);
        }
      }, 60_000);
});
