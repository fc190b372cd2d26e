import type pg from "pg";

// A year of incident history for bench-incidents.ts, written with INSERT ... SELECT generate_series (one statement
// per batch, so the database's own triggers run as they do for any writer). Only the columns of the first incidents
// migration are written, so the same seed runs on builds from before the history columns.

const SIGNALS = [
  "kms.plugin.unhealthy",
  "openbao.sealed",
  "openbao.unreachable",
  "kube-apiserver.kms-providers",
  "kms.report.stale",
  "transit.key.missing",
  "webhook.unavailable",
  "bridge.unreachable",
];
const TITLES = [
  "KMS plugin unhealthy",
  "OpenBao sealed",
  "OpenBao unreachable",
  "kube-apiserver kms-providers check failing",
  "KMS health report stale",
  "Transit key deleted",
  "Secret-protection webhook unavailable",
  "Bridge unreachable",
];
const SUSPECTS = [
  ["kms-plugin-socket-missing", "KMS plugin socket missing"],
  ["openbao-sealed", "OpenBao sealed"],
  ["openbao-unavailable", "OpenBao unavailable"],
  ["transit-key-deleted", "Transit key deleted"],
  ["openbao-leader-failover", "OpenBao leader failover"],
  ["openbao-audit-backend-pressure", "OpenBao audit backend pressure"],
  ["transit-key-soft-deleted", "Transit key soft-deleted"],
  ["openbao-in-protected-cluster", "OpenBao in the protected cluster"],
];
const NOTES = ["rotated the transit key", "restarted the plugin pod", "unsealed with three key holders", "failover to the standby", "paged the storage team"];

const arr = (values: string[]) => `(ARRAY[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(",")}])`;

export async function seedHistory(client: pg.Client, incidents: number, events: number, log: (line: string) => void): Promise<number[]> {
  const t0 = performance.now();
  const took = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const batch = 20_000;
  // Incident g: opened g/N of a year ago; the newest 40 open, the next 60 acknowledged, the rest resolved.
  for (let from = 1; from <= incidents; from += batch) {
    const to = Math.min(incidents, from + batch - 1);
    await client.query(`
      INSERT INTO "incidents" ("id", "cluster", "fingerprint", "signal", "subject", "title", "severity", "status", "source", "opened_at",
        "acknowledged_at", "acknowledged_by", "resolved_at", "resolved_by", "resolution", "last_seen_at", "reopened_at", "reopen_count", "suspects", "updated_at")
      SELECT g, c, c || chr(31) || sig || chr(31) || subj || chr(31) || g, sig, subj, ${arr(TITLES)}[1 + g % 8] || ' (' || subj || ')',
        CASE WHEN g % 10 < 3 THEN 'critical' WHEN g % 10 < 9 THEN 'warning' ELSE 'info' END, st, CASE WHEN g % 6 = 0 THEN 'alert' ELSE 'signal' END, opened,
        CASE WHEN st <> 'open' AND g % 2 = 0 THEN opened + interval '5 minutes' END, CASE WHEN st <> 'open' AND g % 2 = 0 THEN 'sre-' || (g % 12) END,
        CASE WHEN st = 'resolved' THEN opened + make_interval(mins => 30 + g % 300) END, CASE WHEN st = 'resolved' THEN 'faultline' END,
        CASE WHEN st = 'resolved' AND g % 3 = 0 THEN ${arr(NOTES)}[1 + g % 5] END,
        CASE WHEN st = 'resolved' THEN opened + make_interval(mins => 30 + g % 300) ELSE now() END,
        CASE WHEN g > 200 AND g % 40 = 0 THEN opened + interval '2 hours' END, CASE WHEN g > 200 AND g % 40 = 0 THEN 1 ELSE 0 END,
        jsonb_build_array(
          jsonb_build_object('id', ${arr(SUSPECTS.map((s) => s[0]))}[1 + g % 8], 'title', ${arr(SUSPECTS.map((s) => s[1]))}[1 + g % 8], 'score', 0.8, 'reason', 'detected by ' || sig),
          jsonb_build_object('id', ${arr(SUSPECTS.map((s) => s[0]))}[1 + (g + 3) % 8], 'title', ${arr(SUSPECTS.map((s) => s[1]))}[1 + (g + 3) % 8], 'score', 0.3, 'reason', 'shares ' || sig)),
        now()
      FROM (SELECT g, 'prod-' || (g % 20) AS c, ${arr(SIGNALS)}[1 + g % 8] AS sig, 'node-' || (g % 50) || '/kms-' || chr(97 + g % 3) AS subj,
              CASE WHEN g <= 40 THEN 'open' WHEN g <= 100 THEN 'acknowledged' ELSE 'resolved' END AS st,
              now() - make_interval(secs => g * (31536000.0 / ${incidents}) + g % 97) AS opened
            FROM generate_series(${from}, ${to}) g) s`);
    log(`incidents: ${to.toLocaleString("en")} of ${incidents.toLocaleString("en")} (${took()})`);
  }
  await client.query(`SELECT setval(pg_get_serial_sequence('"incidents"', 'id'), ${incidents})`);
  // One to three members each: the opening fingerprint and the ones that joined.
  await client.query(`
    INSERT INTO "incident_members" ("incident_id", "fingerprint", "cluster", "signal", "subject", "source", "state", "detail", "open", "joined_at", "changed_at")
    SELECT i."id", i."fingerprint" || chr(31) || k, i."cluster", ${arr(SIGNALS)}[1 + (i."id" + k) % 8], 'node-' || ((i."id" + k) % 50) || '/kms-' || chr(97 + (i."id" + k) % 3),
      i."source", CASE WHEN i."status" = 'resolved' THEN 'ok' ELSE 'critical' END, 'rpc error: code = Unavailable desc = connection refused',
      i."status" <> 'resolved', i."opened_at" + make_interval(mins => k), i."last_seen_at"
    FROM "incidents" i, generate_series(0, i."id" % 3) k`);
  log(`members: done (${took()})`);
  // The timeline: the same share of events per incident, one note in four incidents (words note0..note499 in them).
  const per = Math.max(1, Math.round(events / incidents));
  const kinds = [
    "status_change",
    "suspects_changed",
    "signal_transition",
    "signal_transition",
    "member_joined",
    "signal_transition",
    "alert_received",
    "signal_transition",
  ];
  for (let from = 1; from <= incidents; from += batch) {
    const to = Math.min(incidents, from + batch - 1);
    await client.query(`
      INSERT INTO "incident_events" ("incident_id", "at", "kind", "actor", "summary", "payload")
      SELECT i."id", i."opened_at" + make_interval(secs => e * 20),
        CASE WHEN e = 3 AND i."id" % 4 = 0 THEN 'note' ELSE ${arr(kinds)}[1 + e % 8] END,
        CASE WHEN e = 3 AND i."id" % 4 = 0 THEN 'sre-' || (i."id" % 12) ELSE 'faultline' END,
        CASE WHEN e = 3 AND i."id" % 4 = 0 THEN ${arr(NOTES)}[1 + i."id" % 5] ELSE i."signal" || ' on ' || i."subject" || ': ok → critical' END,
        CASE WHEN e = 3 AND i."id" % 4 = 0 THEN jsonb_build_object('text', ${arr(NOTES)}[1 + i."id" % 5] || ' on ' || i."subject" || ', ticket note' || (i."id" % 500))
             ELSE jsonb_build_object('signal', i."signal", 'subject', i."subject", 'from', 'ok', 'to', 'critical') END
      FROM "incidents" i, generate_series(1, ${per}) e
      WHERE i."id" BETWEEN ${from} AND ${to}`);
    log(`events: ${Math.min(to * per, incidents * per).toLocaleString("en")} of ${(incidents * per).toLocaleString("en")} (${took()})`);
  }
  log(`vacuum analyze (${took()})`);
  await client.query(`VACUUM ANALYZE`);
  log(`seeded in ${took()}`);
  const ids = await client.query<{ id: number }>(`SELECT "id" FROM "incidents" ORDER BY random() LIMIT 1000`);
  return ids.rows.map((r) => r.id);
}
