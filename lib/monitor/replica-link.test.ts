import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { announceIncidents } from "@/lib/live/bus";
import { healthDigest } from "@/lib/live/registry";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { isStaleTerm } from "@/lib/store/fence";
import { migratedDatabase, signal } from "@/test/incident-db";
import { createClusterLease } from "./lease";
import { readLeaderHealth, readMessage, shareHealth, startReplicaLink, type LinkHandlers, type ReplicaLink } from "./replica-link";

// Two replicas on one real PostgreSQL (docs/replicas.md): the leader's health and every incident change reach
// the other through LISTEN/NOTIFY; a dropped listening connection reconnects and catches up.

let db: { url: string; prisma: PrismaClient; close: () => Promise<void> };
const links: ReplicaLink[] = [];
beforeAll(async () => {
  db = await migratedDatabase();
});
afterAll(async () => {
  await Promise.all(links.map((l) => l.stop()));
  await db.close();
});

/** A replica's handlers that record what they hear, and resolve waiters as it arrives. */
function listener() {
  const heard: { kind: string; value: unknown }[] = [];
  const waiters: { match: (k: string, v: unknown) => boolean; resolve: () => void }[] = [];
  const hear = (kind: string, value: unknown) => {
    heard.push({ kind, value });
    for (const w of waiters.splice(0))
      if (w.match(kind, value)) w.resolve();
      else waiters.push(w);
  };
  const handlers: LinkHandlers = {
    health: (cluster, digest) => hear("health", { cluster, digest }),
    incidents: (ids) => hear("incidents", ids),
    caughtUp: () => hear("caughtUp", null),
  };
  const waitFor = (match: (k: string, v: unknown) => boolean) =>
    new Promise<void>((resolve) => {
      if (heard.some((h) => match(h.kind, h.value))) return resolve();
      waiters.push({ match, resolve });
    });
  return { heard, handlers, waitFor };
}

const health = (state: "ok" | "critical"): ClusterHealth => ({
  name: "east",
  simulated: false,
  checkedAt: new Date().toISOString(),
  intervalSeconds: 30,
  serverMatrices: [],
  reasons: [],
  sources: [{ name: "readyz", up: true }],
  signals: [signal("openbao.sealed", "openbao", state)],
  summary: { state: state === "ok" ? "ok" : "degraded", line: state === "ok" ? "healthy" : "OpenBao is sealed" },
});

describe("the link between replicas", () => {
  it("hands the leader's new health to a follower, which loads it whole only when it changed", async () => {
    const follower = listener();
    links.push(startReplicaLink(db.url, "follower", db.prisma, follower.handlers, { relayIncidents: false }));
    await follower.waitFor((k) => k === "caughtUp");
    const lease = createClusterLease(db.url, "east", { holder: "leader" });
    await lease.check();
    const sealed = health("critical");
    const digest = healthDigest(sealed);
    await shareHealth(db.prisma, "leader", lease.fence()!, sealed, digest);
    await follower.waitFor((k, v) => k === "health" && (v as { digest: string }).digest === digest);
    const stored = await readLeaderHealth(db.prisma, "east", undefined);
    expect(stored?.health?.summary.line).toBe("OpenBao is sealed");
    expect(stored?.readAt.toISOString()).toBe(sealed.checkedAt);
    // The same digest again: only the read time moves, and the follower reads no body.
    const later = { ...sealed, checkedAt: new Date(Date.parse(sealed.checkedAt) + 2_000).toISOString() };
    await shareHealth(db.prisma, "leader", lease.fence()!, later, digest);
    const again = await readLeaderHealth(db.prisma, "east", digest);
    expect(again).toMatchObject({ digest, health: undefined });
    expect(again?.readAt.toISOString()).toBe(later.checkedAt);
  });

  it("refuses the health of a leader whose term is over, and tells no follower", async () => {
    const follower = listener();
    links.push(startReplicaLink(db.url, "follower-2", db.prisma, follower.handlers, { relayIncidents: false }));
    await follower.waitFor((k) => k === "caughtUp");
    const old = createClusterLease(db.url, "west", { holder: "old", leaseMs: 1_000 });
    await old.check();
    const stale = old.fence()!;
    const next = createClusterLease(db.url, "west", { holder: "new" });
    for (let i = 0; i < 100 && !(await next.check()).leading; i++) await new Promise((r) => setTimeout(r, 100));
    const h = { ...health("ok"), name: "west" };
    const error = await shareHealth(db.prisma, "old", stale, h, healthDigest(h)).catch((e: unknown) => e);
    expect(isStaleTerm(error)).toBe(true);
    expect(await readLeaderHealth(db.prisma, "west", undefined)).toBeUndefined();
    expect(follower.heard.filter((h) => h.kind === "health" && (h.value as { cluster: string }).cluster === "west")).toEqual([]);
  });

  it("relays this process's incident changes to the other replicas, not back to itself", async () => {
    const here = listener();
    const there = listener();
    links.push(startReplicaLink(db.url, "here", db.prisma, here.handlers));
    links.push(startReplicaLink(db.url, "there", db.prisma, there.handlers, { relayIncidents: false }));
    await Promise.all([here.waitFor((k) => k === "caughtUp"), there.waitFor((k) => k === "caughtUp")]);
    announceIncidents([41, 42]);
    await there.waitFor((k, v) => k === "incidents" && JSON.stringify(v) === "[41,42]");
    // A change relayed from another replica is announced to this process's pages, and not relayed again.
    announceIncidents([43], { fromReplica: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(there.heard.some((h) => h.kind === "incidents" && JSON.stringify(h.value) === "[43]")).toBe(false);
    expect(here.heard.filter((h) => h.kind === "incidents")).toEqual([]);
  });

  it("reconnects when its connection is cut, and catches up", async () => {
    const follower = listener();
    links.push(startReplicaLink(db.url, "cut", db.prisma, follower.handlers, { relayIncidents: false }));
    await follower.waitFor((k) => k === "caughtUp");
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN faultline_live'`,
      );
      expect(cut.rows.length).toBeGreaterThan(0);
      await new Promise<void>((resolve) => {
        const check = () => (follower.heard.filter((h) => h.kind === "caughtUp").length >= 2 ? resolve() : setTimeout(check, 50));
        check();
      });
      // Listening again: a message sent now arrives.
      await admin.query(`SELECT pg_notify('faultline_live', $1)`, [JSON.stringify({ o: "someone", k: "incidents", ids: [7] })]);
      await follower.waitFor((k, v) => k === "incidents" && JSON.stringify(v) === "[7]");
    } finally {
      await admin.end();
    }
  });

  it("ignores a message that is not in its shape", () => {
    const digest = "a".repeat(40);
    expect(readMessage(JSON.stringify({ o: "x", k: "health", c: "east", d: digest }), "me")).toEqual({ kind: "health", cluster: "east", digest });
    expect(readMessage(JSON.stringify({ o: "me", k: "health", c: "east", d: digest }), "me")).toBeUndefined();
    expect(readMessage(JSON.stringify({ o: "x", k: "health", c: "east", d: "not-a-digest" }), "me")).toBeUndefined();
    expect(readMessage(JSON.stringify({ o: "x", k: "incidents", ids: [1, -2] }), "me")).toBeUndefined();
    expect(readMessage(JSON.stringify({ o: "x", k: "incidents", ids: ["1"] }), "me")).toBeUndefined();
    expect(readMessage("{not json", "me")).toBeUndefined();
    expect(readMessage(JSON.stringify({ o: "x", k: "drop-tables" }), "me")).toBeUndefined();
    expect(readMessage(undefined, "me")).toBeUndefined();
  });
});
