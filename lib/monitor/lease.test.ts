import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { applyRound } from "@/lib/incidents/rounds/apply-round";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { isStaleTerm } from "@/lib/store/fence";
import { commitRound, loadPersisted, newMemo } from "@/lib/store/persist";
import { migratedDatabase, signal } from "@/test/incident-db";
import { createClusterLease, LEASE_MS } from "./lease";

// Leadership as a lease in a real PostgreSQL (docs/replicas.md): one leader per cluster, a frozen leader replaced
// once its lease runs out by the database's clock, and every write of a replaced leader refused by its term.

let db: { url: string; prisma: PrismaClient; close: () => Promise<void> };
beforeAll(async () => {
  db = await migratedDatabase();
});
afterAll(() => db.close());

/** Asks until `done` holds, for at most `ms`: waits for an outcome, not a fixed time. */
async function until<T>(ask: () => Promise<T>, done: (t: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await ask();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const health = (cluster: string, state: "ok" | "critical"): ClusterHealth => ({
  name: cluster,
  simulated: false,
  checkedAt: new Date().toISOString(),
  intervalSeconds: 30,
  serverMatrices: [],
  reasons: [],
  sources: [],
  signals: [signal("openbao.sealed", "openbao", state)],
  summary: { state: state === "ok" ? "ok" : "degraded", line: "" },
});

const transitions = (cluster: string) =>
  db.prisma.signalTransition.findMany({ where: { cluster }, orderBy: { id: "asc" }, select: { previous: true, state: true } });

describe("the monitor lease", () => {
  it("has one holder per cluster; the other sees who leads, and each cluster is independent", async () => {
    const a = createClusterLease(db.url, "east", { holder: "a" });
    const b = createClusterLease(db.url, "east", { holder: "b" });
    const first = await a.check();
    expect(first).toMatchObject({ leading: true, term: 1 });
    expect(await b.check()).toMatchObject({ leading: false, holder: "a", term: 1 });
    expect(b.fence()).toBeUndefined();
    // Renewing keeps the term.
    expect(await a.check()).toMatchObject({ leading: true, term: 1 });
    expect(a.fence()).toEqual({ cluster: "east", holder: "a", term: 1 });
    expect(await createClusterLease(db.url, "west", { holder: "b" }).check()).toMatchObject({ leading: true, term: 1 });
    // Handed back at shutdown: the other takes it at its next check, with the next term.
    await a.release();
    expect(await b.check()).toMatchObject({ leading: true, term: 2 });
  });

  it("passes to a follower once the leader stops renewing, and refuses every write of the old term", async () => {
    const cluster = "frozen";
    const a = createClusterLease(db.url, cluster, { holder: "a" });
    const b = createClusterLease(db.url, cluster, { holder: "b" });
    await a.check();
    const stale = a.fence()!;
    // The old leader wrote critical; the new one must start from it, not from what it knew before.
    await commitRound(db.prisma, health(cluster, "critical"), {}, newMemo(), new Date(), stale);
    // `a` stops renewing (as if frozen; the SIGSTOP test below waits a real lease out): `b` cannot take a live
    // lease, and takes it once it has run out by the database's clock.
    expect(await b.check()).toMatchObject({ leading: false, holder: "a" });
    await db.prisma.$executeRawUnsafe(`UPDATE "monitor_leases" SET "expires_at" = clock_timestamp() WHERE "cluster" = $1`, cluster);
    expect(await b.check()).toMatchObject({ leading: true, term: 2 });
    const { memo } = await loadPersisted(db.prisma, cluster);
    await commitRound(db.prisma, health(cluster, "ok"), {}, memo, new Date(), b.fence()!);
    // The old leader wakes up with a round in hand: refused whole, nothing written.
    const before = await transitions(cluster);
    const error = await commitRound(db.prisma, health(cluster, "critical"), {}, newMemo(), new Date(), stale).catch((e: unknown) => e);
    expect(isStaleTerm(error)).toBe(true);
    await expect(applyRound(db.prisma, cluster, [signal("openbao.sealed", "openbao", "critical")], new Date(), undefined, stale)).rejects.toThrow(
      /FAULTLINE_STALE_TERM/,
    );
    expect(await transitions(cluster)).toEqual(before);
    // One transition each way: the recovery is written once, nothing is repeated.
    expect(before).toEqual([
      { previous: null, state: "critical" },
      { previous: "critical", state: "ok" },
    ]);
    // Its next renewal tells the old leader it no longer leads: it stops acting.
    expect(await a.check()).toMatchObject({ leading: false, holder: "b", term: 2 });
    expect(a.fence()).toBeUndefined();
  });

  it("lets the leader renew while its own write is in flight, and makes a takeover wait for that write", async () => {
    const cluster = "in-flight";
    const a = createClusterLease(db.url, cluster, { holder: "a" });
    const b = createClusterLease(db.url, cluster, { holder: "b" });
    await a.check();
    const write = new pg.Client({ connectionString: db.url });
    await write.connect();
    try {
      // A fenced write of the leader's, not yet committed (a slow round).
      await write.query("BEGIN");
      await write.query("SELECT faultline_fence($1, $2, $3::bigint)", [cluster, "a", 1]);
      // Renewing is not held up by it (statement_timeout would make this throw after 3 s).
      expect(await a.check()).toMatchObject({ leading: true, term: 1 });
      // The lease runs out; the follower's takeover waits for the write in flight instead of starting under it.
      await db.prisma.$executeRawUnsafe(`UPDATE "monitor_leases" SET "expires_at" = clock_timestamp() WHERE "cluster" = $1`, cluster);
      let settled = false;
      const takeover = b.check().finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 500));
      expect(settled).toBe(false);
      await write.query("COMMIT");
      expect(await takeover).toMatchObject({ leading: true, term: 2 });
    } finally {
      await write.end();
    }
  });

  it("is free at once when the leader's process dies, without waiting for the lease to run out", async () => {
    const cluster = "sigkill";
    // A lease of a minute: a takeover before it runs out can only come from the leader's session having ended.
    const child = spawn(process.execPath, ["--import", "tsx", "test/bin/hold-cluster-lease.ts", db.url, cluster, "doomed", "60000"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! });
    try {
      expect(await new Promise<string>((resolve) => lines.once("line", resolve))).toBe("leading 1");
      const follower = createClusterLease(db.url, cluster, { holder: "survivor" });
      expect(await follower.check()).toMatchObject({ leading: false, holder: "doomed" });
      const lease = await db.prisma.monitorLease.findUniqueOrThrow({ where: { cluster } });
      child.kill("SIGKILL");
      const view = await until(
        () => follower.check(),
        (v) => v.leading,
        30_000,
      );
      expect(view).toMatchObject({ leading: true, term: 2 });
      const taken = await db.prisma.monitorLease.findUniqueOrThrow({ where: { cluster } });
      expect(taken.acquiredAt.getTime()).toBeLessThan(lease.expiresAt.getTime());
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);

  it("is taken over from a leader process frozen by SIGSTOP, which stops leading once it runs again", async () => {
    const cluster = "sigstop";
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "test/bin/hold-cluster-lease.ts", db.url, cluster, "child"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! });
    const next = () => new Promise<string>((resolve) => lines.once("line", resolve));
    try {
      expect(await next()).toBe("leading 1");
      const follower = createClusterLease(db.url, cluster, { holder: "follower" });
      expect(await follower.check()).toMatchObject({ leading: false, holder: "child" });
      child.kill("SIGSTOP");
      const frozenAt = Date.now();
      // While frozen it still holds its connections; the follower sees it go silent, then takes over.
      const silent = await until(
        () => follower.check(),
        (v) => (v.silentForMs ?? 0) >= 2_000 || v.leading,
        LEASE_MS + 10_000,
      );
      expect(silent.leading ? "took over before it saw silence" : "silent").toBe("silent");
      const view = await until(
        () => follower.check(),
        (v) => v.leading,
        LEASE_MS + 10_000,
      );
      expect(view).toMatchObject({ leading: true, term: 2 });
      expect(Date.now() - frozenAt).toBeGreaterThanOrEqual(LEASE_MS - 1_000);
      const lost = next();
      child.kill("SIGCONT");
      expect(await lost).toBe("lost");
      expect(await follower.check()).toMatchObject({ leading: true, term: 2 });
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
