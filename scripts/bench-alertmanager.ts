// npm run bench:alerts -- [sizes] [pad]: Debian's real Alertmanager delivers one group of each size (alerts with a
// `padding` label of `pad` characters) to Faultline's webhook route on a throw-away PostgreSQL; prints per size
// the delivery's bytes, the time to record it, what Alertmanager retried, and whether every alert is on record.
// `npm run bench:alerts -- past` sends one group over the 64 MiB bound and prints what Alertmanager and Faultline do.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { PrismaClient } from "@/lib/db/generated/client";
import { migrate } from "@/lib/db/migrate";
import { loadEnv, setDatabaseUrl } from "@/lib/env";
import { group, startAlertmanager, startReceiver, until } from "@/test/alertmanager";

const past = process.argv[2] === "past";
const sizes = past ? [20_000] : (process.argv[2] ?? "1001,5000,20000").split(",").map(Number);
const pad = Number(process.argv[3] ?? (past ? 3_500 : 400));
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-bench-am-"));
  const pg = await startEmbeddedPostgres(dir, () => undefined);
  await migrate(pg.url);
  setDatabaseUrl(pg.url);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: pg.url }) });
  const t = performance.now();
  // Delivered with the webhook's bearer token, as a configured Faultline takes them: FAULTLINE_WEBHOOK_TOKEN, or a fresh one.
  const token = loadEnv().FAULTLINE_WEBHOOK_TOKEN ?? randomBytes(24).toString("hex");
  const receiver = await startReceiver(
    (d) => {
      const summary = Object.fromEntries(Object.entries(d.body).filter(([k]) => k !== "outcomes"));
      console.log(
        `  [${((performance.now() - t) / 1000).toFixed(0)} s] delivery: ${d.status}, ${mb(d.bytes)}, answered in ${(d.ms / 1000).toFixed(1)} s, ${JSON.stringify(summary)}`,
      );
    },
    { token },
  );
  const am = await startAlertmanager({
    webhookUrl: `${receiver.url}/api/v1/alerts/alertmanager`,
    token,
    groupWait: "1s",
    groupInterval: process.env.BENCH_GROUP_INTERVAL ?? "30s",
  });
  const recorded = (alertname: string, kind: string) => prisma.incidentEvent.count({ where: { kind, payload: { path: ["alertname"], equals: alertname } } });

  try {
    for (const n of sizes) {
      const alertname = `Bench${n}`;
      const startsAt = new Date().toISOString();
      const from = receiver.deliveries.length;
      const t0 = performance.now();
      await am.push(group(n, { alertname, cluster: "bench", pad, startsAt }));
      if (past) {
        await new Promise((r) => setTimeout(r, 60_000));
        const mine = receiver.deliveries.slice(from);
        const refused = mine.filter((d) => d.status !== 200);
        console.log(
          `${n} alerts: ${mine.length} deliveries in 60 s, ${refused.length} of them answered ${[...new Set(refused.map((d) => d.status))].join(",")}, ${mb(refused[0]?.bytes ?? 0)} each`,
        );
        console.log(`Faultline answered: ${JSON.stringify(refused[0]?.body)}`);
        console.log(`recorded: ${await recorded(alertname, "alert_received")} of ${n}`);
        console.log(
          `Alertmanager's log:\n${am
            .log()
            .split("\n")
            .filter((l) => /webhook|Notify|notify/.test(l))
            .slice(0, 6)
            .join("\n")}`,
        );
        continue;
      }
      const answered = (since: number) => receiver.deliveries.slice(since).some((d) => d.status === 200 && d.alerts === n);
      await until(`${n} alerts recorded`, async () => answered(from) && (await recorded(alertname, "alert_received")) === n, 600_000);
      const firing = receiver.deliveries.slice(from);
      const whole = firing.find((d) => d.status === 200 && d.alerts === n);
      const total = ((performance.now() - t0) / 1000).toFixed(1);
      console.log(
        `${String(n).padStart(6)} alerts firing:   ${mb(whole?.bytes ?? 0)}, recorded in ${((whole?.ms ?? 0) / 1000).toFixed(1)} s (push to all on record ${total} s), ${firing.length} deliveries, answers ${firing.map((d) => d.status).join(",")}`,
      );

      const from2 = receiver.deliveries.length;
      const t1 = performance.now();
      await am.push(group(n, { alertname, cluster: "bench", pad, startsAt, endsAt: new Date(Date.now() - 1000).toISOString() }));
      await until(`${n} alerts resolved`, async () => answered(from2) && (await recorded(alertname, "alert_resolved")) === n, 900_000);
      const resolved = receiver.deliveries.slice(from2);
      const last = resolved.find((d) => d.status === 200 && d.alerts === n);
      console.log(
        `${String(n).padStart(6)} alerts resolved:  ${mb(last?.bytes ?? 0)}, recorded in ${((last?.ms ?? 0) / 1000).toFixed(1)} s (push to all on record ${((performance.now() - t1) / 1000).toFixed(1)} s), ${resolved.length} deliveries, answers ${resolved.map((d) => d.status).join(",")}`,
      );
    }
  } catch (error) {
    console.log(
      `${(error as Error).message}; Alertmanager's log (notify lines):\n${am
        .log()
        .split("\n")
        .filter((l) => /notify|Notify/.test(l))
        .slice(-8)
        .join("\n")}`,
    );
  } finally {
    await am.stop();
    await receiver.close();
    await prisma.$disconnect();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
