import { describe, expect, it } from "vitest";
import type { Sources } from "@/lib/sources/sources";
import { readSources } from "@/lib/sources/readings";
import { composeClusterHealth } from "./cluster-health";

// cluster.api.unreachable from the Kubernetes sources' own state, as the monitor records it (lib/sources/state.ts):
// the error texts are those the client and the watches record for a refused, timed-out or answered read.

const now = new Date("2026-11-23T10:00:00Z");
const down = (name: string, lastError: string, downSince = "2026-11-23T09:58:00Z") => ({
  name,
  up: false,
  downSince,
  lastError,
  lastSuccess: "2026-11-23T09:57:50Z",
});
const up = (name: string) => ({ name, up: true, lastSuccess: "2026-11-23T09:59:50Z", value: name === "nodes" ? [] : {} });
const KUBE = ["kubeapiserver", "nodes", "operator", "webhook", "kmsProviders", "readyz"] as const;

function signalOf(sources: Sources) {
  const health = composeClusterHealth({ name: "prod", simulated: false, intervalSeconds: 30, readings: readSources(sources), now });
  return health.signals.filter((s) => s.id === "cluster.api.unreachable");
}
const all = (make: (name: string) => object) => Object.fromEntries(KUBE.map((n) => [n, make(n)])) as Sources;

describe("cluster.api.unreachable", () => {
  it("is critical when every Kubernetes read is refused, with the error text and since when", () => {
    const [s] = signalOf({ ...all((n) => down(n, "connect ECONNREFUSED 127.0.0.1:6443")), openbao: up("openbao") as Sources["openbao"] });
    expect(s).toMatchObject({ subject: "cluster", state: "critical", problem: { kind: "cluster-api-unreachable" } });
    expect(s.detail).toBe("no Kubernetes read answered since 2026-11-23T09:58:00Z: connect ECONNREFUSED 127.0.0.1:6443");
  });

  it("is critical on timeouts too, and ok as soon as one read answers", () => {
    expect(signalOf(all((n) => down(n, "the request timed out after 30000 ms")))[0].state).toBe("critical");
    const one = { ...all((n) => down(n, "connect ETIMEDOUT 10.0.0.1:6443")), nodes: up("nodes") } as Sources;
    expect(signalOf(one)[0]).toMatchObject({ state: "ok", detail: "1 of 6 Kubernetes reads answer" });
  });

  it("is ok when the API server answers every read with an error: it is reachable, the reads fail for another reason", () => {
    const [s] = signalOf(all((n) => down(n, `GET /apis/x/${n}: 403 forbidden: User "system:anonymous" cannot list`)));
    expect(s.state).toBe("ok");
    expect(s.detail).toMatch(/^answers, refusing the reads: GET \/apis\/x\/kubeapiserver: 403 forbidden/);
  });

  it("says nothing before any Kubernetes read has been made (OpenBao alone is no cluster API)", () => {
    expect(signalOf({ openbao: up("openbao") as Sources["openbao"] })).toEqual([]);
  });

  it("keeps a hostile error text to one clipped line", () => {
    const [s] = signalOf(all((n) => down(n, `connect ECONNREFUSED\n${"x".repeat(1000)}`)));
    expect(s.detail).not.toContain("\n");
    expect(s.detail.length).toBeLessThanOrEqual(400);
  });
});
