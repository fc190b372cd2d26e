import { describe, expect, it } from "vitest";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { onHealth } from "./bus";
import { publishHealth } from "./registry";

const health = (state: "ok" | "critical", checkedAt: string): ClusterHealth => ({
  name: "prod",
  simulated: false,
  checkedAt,
  intervalSeconds: 30,
  serverMatrices: [],
  reasons: [],
  sources: [{ name: "kubeapiserver", up: true }],
  signals: [{ id: "openbao.sealed", subject: "openbao", state, detail: state, evidence: null }],
  summary: { state: state === "ok" ? "ok" : "degraded", line: state },
});

describe("health change announcements", () => {
  it("announce only what a viewer would notice, not the clock moving on", () => {
    const heard: string[] = [];
    const stop = onHealth((push) => heard.push(push.cluster));
    publishHealth(health("ok", "2026-08-20T10:00:00Z"));
    publishHealth(health("ok", "2026-08-20T10:00:02Z"));
    publishHealth(health("critical", "2026-08-20T10:00:04Z"));
    stop();
    publishHealth(health("ok", "2026-08-20T10:00:06Z"));
    expect(heard).toEqual(["prod", "prod"]);
  });
});
