import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/db/generated/client";
import { migrate } from "@/lib/db/migrate";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { createTestDatabase } from "@/test/database";
import { loadPersisted, newMemo, persistRound } from "./persist";
import type { Sources } from "@/lib/sources/sources";

// On a real PostgreSQL: only changes are written, and a restart gets back what was known.

let db: { url: string; drop: () => Promise<void> };
let prisma: PrismaClient;
beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.url);
  prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }) });
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

const health = (state: "ok" | "critical"): ClusterHealth => ({
  name: "prod",
  simulated: false,
  checkedAt: "2026-08-20T10:15:00.000Z",
  intervalSeconds: 30,
  serverMatrices: [],
  reasons: [],
  sources: [],
  signals: [
    {
      id: "kms.plugin.unhealthy",
      subject: "master-1/2",
      state,
      detail: state === "ok" ? "healthy" : "credential lacks decrypt permission",
      evidence: { node: "master-1" },
    },
    { id: "openbao.sealed", subject: "openbao", state: "ok", detail: "unsealed", evidence: { big: "x".repeat(40_000) } },
  ],
  summary: { state: state === "ok" ? "ok" : "degraded", line: "" },
});
const sources = (up: boolean): Sources => ({
  kubeapiserver: {
    name: "kubeapiserver",
    up,
    lastSuccess: "2026-08-20T10:14:00.000Z",
    ...(up ? {} : { downSince: "2026-08-20T10:15:00.000Z", lastError: "connect ECONNREFUSED" }),
    value: { metadata: { name: "cluster" }, status: { conditions: [] } },
  },
});

describe("persisting live health", () => {
  it("records each signal once, then only its changes, as an append-only history", async () => {
    const memo = newMemo();
    const t = (s: number) => new Date(Date.UTC(2026, 7, 20, 10, 15, s));
    expect(await persistRound(prisma, health("ok"), sources(true), memo, t(0))).toBe(2);
    expect(await persistRound(prisma, health("ok"), sources(true), memo, t(1))).toBe(0);
    expect(await persistRound(prisma, health("critical"), sources(true), memo, t(2))).toBe(1);
    const history = await prisma.signalTransition.findMany({ where: { signal: "kms.plugin.unhealthy" }, orderBy: { id: "asc" } });
    expect(history.map((h) => [h.previous, h.state])).toEqual([
      [null, "ok"],
      ["ok", "critical"],
    ]);
    const current = await prisma.signalState.findUniqueOrThrow({
      where: { cluster_signal_subject: { cluster: "prod", signal: "kms.plugin.unhealthy", subject: "master-1/2" } },
    });
    expect(current).toMatchObject({ state: "critical", since: t(2), detail: "credential lacks decrypt permission" });
    const sealed = await prisma.signalState.findUniqueOrThrow({
      where: { cluster_signal_subject: { cluster: "prod", signal: "openbao.sealed", subject: "openbao" } },
    });
    expect(sealed.evidence).toEqual({ truncated: true, bytes: expect.any(Number) });
  });

  it("gives a restarted server the last-known value of a source that is down, and the signals' states", async () => {
    const memo = newMemo();
    await persistRound(prisma, health("critical"), sources(false), memo, new Date(Date.UTC(2026, 7, 20, 10, 16, 0)));
    const restored = await loadPersisted(prisma, "prod");
    expect(restored.sources.kubeapiserver).toEqual({
      name: "kubeapiserver",
      up: false,
      lastSuccess: "2026-08-20T10:14:00.000Z",
      downSince: "2026-08-20T10:15:00.000Z",
      lastError: "connect ECONNREFUSED",
      value: { metadata: { name: "cluster" }, status: { conditions: [] } },
    });
    expect(restored.memo.signals.get("kms.plugin.unhealthy\u0000master-1/2")).toBe("critical");
    // Nothing new to write after a restart when nothing changed.
    expect(await persistRound(prisma, health("critical"), sources(false), restored.memo, new Date(Date.UTC(2026, 7, 20, 10, 16, 5)))).toBe(0);
  });
  it("keeps the stored value when a source goes down without one, and stores a large value whole", async () => {
    const memo = newMemo();
    const conditions = Array.from({ length: 5_000 }, (_, i) => ({ type: "Healthy", status: "True", node: `node-${i}`, message: "ok \u00e9" }));
    const big: Sources = { kubeapiserver: { name: "kubeapiserver", up: true, lastSuccess: "2026-08-20T10:14:00.000Z", value: { status: { conditions } } } };
    await persistRound(prisma, { ...health("ok"), name: "big" }, big, memo, new Date(Date.UTC(2026, 7, 20, 10, 20, 0)));
    const down: Sources = {
      kubeapiserver: { name: "kubeapiserver", up: false, downSince: "2026-08-20T10:21:00.000Z", lastError: "connect ECONNREFUSED", value: undefined },
    };
    await persistRound(prisma, { ...health("ok"), name: "big" }, down, memo, new Date(Date.UTC(2026, 7, 20, 10, 21, 0)));
    const restored = await loadPersisted(prisma, "big");
    expect(restored.sources.kubeapiserver).toMatchObject({ up: false, lastError: "connect ECONNREFUSED", value: { status: { conditions } } });
  });
});
