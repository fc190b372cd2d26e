// npm run bench:replicas [-- --replicas 2 --changes 20]: Faultline as replicas on one PostgreSQL watching one simulated
// cluster (docs/replicas.md), tried as a platform team would. Prints:
//   - follower lag: for each of N health changes, the time from the leader's push to each follower's push (p50, p95, max);
//   - takeover after SIGKILL of the leader: until a follower leads;
//   - takeover after SIGSTOP of the leader (frozen, holding its connections): until a follower says the leader is
//     silent, leads, shows the failure injected meanwhile and opens its incident; then SIGCONT: the old leader steps down;
//   - transitions duplicated or lost in signal_transitions, and signal_states rows that disagree with the cluster;
//   - notifications lost or repeated (a receiver on loopback; Faultline's outbox delivers them).
// The replicas are the built server (scripts/start.ts; the first start builds when the sources changed), each in its
// own process group; PostgreSQL is an embedded one of this script's own; the cluster is simulated in this process.
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { startSimulatedCluster } from "@/lib/demo/cluster/start";
import { freePort } from "@/lib/free-port";
import { tally, waitDrained } from "@/test/notify-crash";
import { startTestReceiver } from "@/test/notify-receiver";
import { followIncidentPushes, followPushes, healthOf, roleOf, signalGroup, startReplica, waitFor, writeClustersFile, type Replica } from "@/test/replicas";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const n = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of at least 1`);
  return n;
};
const REPLICAS = Math.max(2, arg("replicas", 2));
const CHANGES = arg("changes", 20);
const CLUSTER = "bench-east";
const root = process.cwd();
const logFile = "test-results/bench-replicas.log";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};
const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? null : Math.round(n));

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-replicas-"));
  await chmod(dir, 0o711); // as root, PostgreSQL runs as "postgres" and must reach its folder
  const db = await startEmbeddedPostgres(path.join(dir, "db"), () => undefined);
  const demo = await startSimulatedCluster({ name: CLUSTER, nodes: 3, design: "condition", intervalMs: 2_000, dir: path.join(dir, "demo") });
  const clustersFile = writeClustersFile(path.join(dir, "config"), demo);
  const receiver = await startTestReceiver();
  const replicas: Replica[] = [];
  const start = async (i: number) => {
    const replica = startReplica({
      name: `r${i}`,
      root,
      port: await freePort(),
      databaseUrl: db.url,
      dataDir: path.join(dir, `data-${i}`),
      clustersFile,
      receiverUrl: receiver.url,
      logFile,
    });
    // Ready only once it knows whether it leads (readiness waits for the role).
    const ready = await waitFor(
      () =>
        fetch(`${replica.url}/api/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      (ok) => ok || replica.child.exitCode !== null,
      300_000,
      200,
    );
    if (!ready?.value) throw new Error(`replica r${i} did not become ready (see ${logFile})`);
    return replica;
  };
  const result: Record<string, unknown> = { replicas: REPLICAS, changes: CHANGES };
  try {
    // One at a time: the first start builds when the sources changed, and two builds must not race.
    for (let i = 1; i <= REPLICAS; i++) replicas.push(await start(i));
    const leaderOf = async (among: Replica[]) => {
      const found = await waitFor(
        async () => {
          for (const r of among) if ((await roleOf(r, CLUSTER)) === "leader") return r;
          return undefined;
        },
        (r) => r !== undefined,
        30_000,
      );
      if (!found?.value) throw new Error("no replica leads the cluster");
      return found.value;
    };
    let leader = await leaderOf(replicas);
    await waitFor(
      () => healthOf(leader, CLUSTER),
      (h) => h?.summary.state === "ok",
      60_000,
    );
    console.log(`leader: ${leader.name}; measuring follower lag over ${CHANGES} changes`);

    // 1. Follower lag: each change's push on the leader, then on every follower.
    const streams = new Map(replicas.map((r) => [r, followPushes(r, CLUSTER)]));
    await new Promise((r) => setTimeout(r, 1_000));
    const lags: number[] = [];
    let missed = 0;
    for (let c = 0; c < CHANGES; c++) {
      const sealed = c % 2 === 0;
      const want = sealed ? "degraded" : "ok";
      const marks = new Map([...streams].map(([r, s]) => [r, s.states.length]));
      await setScenario(demo.server.cluster, "openbao-sealed", sealed);
      const seenAt = (r: Replica) =>
        streams
          .get(r)!
          .states.slice(marks.get(r))
          .find((s) => s.state === want)?.at;
      const all = await waitFor(
        async () => replicas.map(seenAt),
        (times) => times.every((t) => t !== undefined),
        20_000,
        20,
      );
      if (!all) {
        missed++;
        continue;
      }
      const leaderAt = seenAt(leader)!;
      for (const r of replicas) if (r !== leader) lags.push(seenAt(r)! - leaderAt);
    }
    for (const s of streams.values()) s.stop();
    result.followerLagMs = { samples: lags.length, missed, p50: ms(percentile(lags, 50)), p95: ms(percentile(lags, 95)), max: ms(Math.max(...lags)) };
    console.log(`follower lag: ${JSON.stringify(result.followerLagMs)}`);
    await setScenario(demo.server.cluster, "openbao-sealed", false);
    await waitFor(
      () => healthOf(leader, CLUSTER),
      (h) => h?.summary.state === "ok",
      30_000,
    );

    // 2. SIGKILL of the leader: how long until another replica leads.
    const killed = leader;
    signalGroup(killed, "SIGKILL");
    const killedAt = performance.now();
    await killed.exited;
    const others = replicas.filter((r) => r !== killed);
    leader = await leaderOf(others);
    result.takeoverAfterSigkillMs = ms(performance.now() - killedAt);
    console.log(`takeover after SIGKILL: ${result.takeoverAfterSigkillMs} ms (${leader.name} leads)`);
    replicas[replicas.indexOf(killed)] = await start(Number(killed.name.slice(1)));
    await waitFor(
      () =>
        roleOf(
          replicas.find((r) => r.name === killed.name)!,
          CLUSTER,
        ),
      (role) => role === "follower",
      30_000,
    );

    // 3. SIGSTOP of the leader, and OpenBao sealed while it is frozen.
    const frozen = leader;
    const watchers = replicas.filter((r) => r !== frozen);
    signalGroup(frozen, "SIGSTOP");
    const stoppedAt = performance.now();
    await setScenario(demo.server.cluster, "openbao-sealed", true);
    const since = () => performance.now() - stoppedAt;
    const timings: Record<string, number | null> = {};
    const incidentOpen = async (r: Replica) => {
      const body = await fetch(`${r.url}/api/v1/incidents?status=open,acknowledged&limit=50`, { signal: AbortSignal.timeout(2_000) })
        .then((res) => (res.ok ? (res.json() as Promise<{ incidents: { cluster: string; title: string }[] }>) : undefined))
        .catch(() => undefined);
      return body?.incidents.some((i) => i.cluster === CLUSTER) ?? false;
    };
    await waitFor(
      async () => {
        for (const r of watchers) {
          const h = await healthOf(r, CLUSTER);
          if (timings.silentShown === undefined && h?.replica?.leaderSilentSince) timings.silentShown = ms(since());
          if (timings.failureShown === undefined && h?.summary.state === "degraded") timings.failureShown = ms(since());
          if (timings.takenOver === undefined && (await roleOf(r, CLUSTER)) === "leader") timings.takenOver = ms(since());
          if (timings.incidentOpened === undefined && (await incidentOpen(r))) timings.incidentOpened = ms(since());
        }
        return timings;
      },
      (t) => t.failureShown !== undefined && t.takenOver !== undefined && t.incidentOpened !== undefined,
      60_000,
      100,
    );
    result.frozenLeaderMs = {
      leaderSilentShown: timings.silentShown ?? null,
      takenOver: timings.takenOver ?? null,
      failureShown: timings.failureShown ?? null,
      incidentOpened: timings.incidentOpened ?? null,
    };
    console.log(`frozen leader: ${JSON.stringify(result.frozenLeaderMs)}`);
    signalGroup(frozen, "SIGCONT");
    const steppedDown = await waitFor(
      () => roleOf(frozen, CLUSTER),
      (role) => role === "follower",
      30_000,
    );
    result.oldLeaderSteppedDownMs = steppedDown ? ms(steppedDown.ms) : null;
    console.log(`the old leader after SIGCONT: ${steppedDown ? `follower after ${ms(steppedDown.ms)} ms` : "still not a follower"}`);

    // 4. Incident changes made through one replica reach the others' streams: notes added through the leader.
    const open = await fetch(`${leader.url}/api/v1/incidents?status=open,acknowledged&limit=50`).then(
      (r) => r.json() as Promise<{ incidents: { id: number; cluster: string }[] }>,
    );
    const incident = open.incidents.find((i) => i.cluster === CLUSTER);
    if (incident) {
      const followers = replicas.filter((r) => r !== leader);
      const feeds = new Map(followers.map((r) => [r, followIncidentPushes(r)]));
      await new Promise((r) => setTimeout(r, 1_000));
      const pushLags: number[] = [];
      let unseen = 0;
      for (let n = 0; n < CHANGES; n++) {
        const marks = new Map([...feeds].map(([r, f]) => [r, f.pushes.length]));
        const sent = performance.now();
        const note = await fetch(`${leader.url}/api/v1/incidents/${incident.id}/notes`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: leader.url },
          body: JSON.stringify({ text: `bench note ${n + 1}` }),
        });
        if (!note.ok) throw new Error(`a note through ${leader.name} was refused: ${note.status} ${await note.text()}`);
        const seen = await waitFor(
          async () =>
            followers.map(
              (r) =>
                feeds
                  .get(r)!
                  .pushes.slice(marks.get(r))
                  .find((p) => p.ids.includes(incident.id))?.at,
            ),
          (times) => times.every((t) => t !== undefined),
          10_000,
          10,
        );
        if (!seen) unseen++;
        else for (const at of seen.value) pushLags.push(at! - sent);
      }
      for (const f of feeds.values()) f.stop();
      result.incidentPushToFollowersMs = {
        samples: pushLags.length,
        unseen,
        p50: ms(percentile(pushLags, 50)),
        p95: ms(percentile(pushLags, 95)),
        max: ms(Math.max(...pushLags)),
      };
      console.log(`a note through the leader, on the followers' incident streams: ${JSON.stringify(result.incidentPushToFollowersMs)}`);
    }

    // 5. Recovery, then the books: transitions, signal states, notifications.
    await setScenario(demo.server.cluster, "openbao-sealed", false);
    leader = await leaderOf(replicas);
    await waitFor(
      () => healthOf(leader, CLUSTER),
      (h) => h?.summary.state === "ok",
      60_000,
    );
    await new Promise((r) => setTimeout(r, 6_000)); // two rounds: the recovery is committed
    result.history = await checkHistory(db.url, leader);
    await waitDrained(db.url, 60_000);
    const t = await tally(db.url, receiver);
    result.notifications = {
      expected: t.expected,
      delivered: t.delivered,
      lost: t.lost,
      repeatedKeys: t.rawDuplicates,
      duplicatedAfterDedupe: t.duplicatedAfterDedupe,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const r of replicas) {
      signalGroup(r, "SIGCONT");
      signalGroup(r, "SIGTERM");
    }
    await Promise.race([Promise.all(replicas.map((r) => r.exited)), new Promise((r) => setTimeout(r, 15_000))]);
    for (const r of replicas) signalGroup(r, "SIGKILL");
    await receiver.close();
    await demo.server.stop();
    await db.stop();
  }
}

/**
 * Each (signal, subject)'s transitions must chain: every row's `previous` is the state the row before it set.
 * A row that repeats the state it follows is duplicated; one whose `previous` is another state means one was lost.
 * And each signal_states row must say what the leader's health says now.
 */
async function checkHistory(url: string, leader: Replica) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (
      await client.query<{ signal: string; subject: string; previous: string | null; state: string }>(
        `SELECT signal, subject, previous, state FROM signal_transitions WHERE cluster = $1 ORDER BY id`,
        [CLUSTER],
      )
    ).rows;
    const last = new Map<string, string>();
    let duplicated = 0;
    let lost = 0;
    for (const r of rows) {
      const key = `${r.signal}\u0000${r.subject}`;
      const before = last.get(key) ?? null;
      if (r.previous !== before || r.state === before) {
        if (r.state === before) duplicated++;
        else lost++;
      }
      last.set(key, r.state);
    }
    const health = await healthOf(leader, CLUSTER, "whole");
    if (!health) throw new Error(`${leader.name} serves no health of ${CLUSTER}`);
    const states = (
      await client.query<{ signal: string; subject: string; state: string }>(`SELECT signal, subject, state FROM signal_states WHERE cluster = $1`, [CLUSTER])
    ).rows;
    const stored = new Map(states.map((s) => [`${s.signal}\u0000${s.subject}`, s.state]));
    const disagree = health.signals.filter((s) => stored.get(`${s.id}\u0000${s.subject}`) !== s.state).map((s) => `${s.id} ${s.subject}`);
    const critical = states.filter((s) => s.state === "critical").length;
    return {
      transitions: rows.length,
      duplicated,
      lost,
      signalStatesDisagreeing: disagree.length,
      disagreeing: disagree.slice(0, 10),
      storedCritical: critical,
    };
  } finally {
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:replicas: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
