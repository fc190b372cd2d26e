// npm run bench:evidence -- [rounds]: how long after evidence arrives an incident's suspects have changed, on a
// throw-away embedded PostgreSQL. For each case of the diagnosis corpus's evidence part (test/diagnosis/corpus/
// evidence/, the real texts: plugin alerts, pod logs, journals) an incident is opened from a redacted plugin signal,
// then each kind of evidence arrives through the path the product takes: an Alertmanager delivery (receiveDelivery,
// which ranks before it answers), a log reading (recordLogReadings, as the reader stores one) and a paste
// (addPastedEvidence). The time is from the call to the ranking committed. Prints p50, p95 and max per kind, and the
// bytes of log per incident.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { PrismaClient } from "@/lib/db/generated/client";
import { migrate } from "@/lib/db/migrate";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { receiveDelivery } from "@/lib/incidents/alerts/webhook";
import { recordLogReadings } from "@/lib/incidents/evidence/log-evidence";
import { addPastedEvidence } from "@/lib/incidents/evidence/paste";
import { applyRound } from "@/lib/incidents/rounds/apply-round";
import type { Signal } from "@/lib/signals/signal-model";
import { loadCorpus } from "@/test/diagnosis/eval";

const ROUNDS = Number(process.argv[2] ?? 1);
const REDACTED = "keyID 1 error: rpc error: code = Unknown desc = kms provider is not healthy";
const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const line = (name: string, xs: number[]) =>
  console.log(
    `${name.padEnd(22)} n=${String(xs.length).padStart(3)}  p50 ${pct(xs, 50).toFixed(0)} ms  p95 ${pct(xs, 95).toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms`,
  );

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-bench-evidence-"));
  const pg = await startEmbeddedPostgres(dir, () => undefined);
  await migrate(pg.url);
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: pg.url }) });
  const times = { alert: [] as number[], logs: [] as number[], paste: [] as number[] };
  const logBytes: number[] = [];
  try {
    const cases = [...loadCorpus("evidence"), ...loadCorpus("evidence-held-aside")];
    let n = 0;
    for (let round = 0; round < ROUNDS; round++)
      for (const c of cases) {
        const cluster = `bench-${n++}`;
        const now = new Date(Date.UTC(2026, 10, 28, 4, 0, 0) + n * 1000);
        const plugin: Signal = { id: "kms.plugin.unhealthy", subject: "master-0/1", state: "critical", detail: REDACTED, evidence: { seen: REDACTED } };
        const id = (await applyRound(db, cluster, [plugin], now, config)).opened[0];
        const e = c.evidence ?? {};
        if (e.alerts?.length) {
          const body = {
            version: "4",
            groupKey: `{}:{cluster="${cluster}"}`,
            status: "firing",
            receiver: "faultline",
            externalURL: "http://alertmanager.invalid",
            alerts: e.alerts.map((a, i) => ({
              status: "firing",
              labels: { ...a.labels, cluster },
              annotations: a.annotations ?? {},
              startsAt: now.toISOString(),
              fingerprint: `${cluster}-${i}`,
            })),
          };
          const t = performance.now();
          await receiveDelivery(db, body, cluster, { now, config });
          times.alert.push(performance.now() - t);
        }
        const readings = [
          ...(e.logs ?? []).map((l) => ({
            kind: "pod-log" as const,
            key: `${l.node}/${l.container}${l.previous ? "/previous" : ""}`,
            source: `${l.container} on ${l.node}`,
            lines: l.lines,
          })),
          ...(e.journal ?? []).map((j) => ({ kind: "journal" as const, key: `${j.node}/${j.unit}`, source: `${j.unit} on ${j.node}`, lines: j.lines })),
        ].map((r) => ({ ...r, bytes: Buffer.byteLength(r.lines.join("\n")), cut: false }));
        if (readings.length) {
          logBytes.push(readings.reduce((s, r) => s + r.bytes, 0));
          const t = performance.now();
          await recordLogReadings(db, id, readings, "faultline", now);
          times.logs.push(performance.now() - t);
          // The same lines pasted by an on-call: the paste path's own cost.
          const t2 = performance.now();
          await addPastedEvidence(db, id, { actor: "bench", text: readings.flatMap((r) => r.lines).join("\n") }, now);
          times.paste.push(performance.now() - t2);
        }
      }
    console.log(`\n${cases.length * ROUNDS} incidents, one per evidence case (PostgreSQL ${pg.url.replace(/\/\/[^@]*@/, "//")})`);
    line("alert delivery", times.alert);
    line("log reading stored", times.logs);
    line("paste", times.paste);
    const sorted = [...logBytes].sort((a, b) => a - b);
    console.log(`log bytes per incident: p50 ${pct(sorted, 50)} B, p95 ${pct(sorted, 95)} B, max ${sorted.at(-1)} B`);
  } finally {
    await db.$disconnect();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
