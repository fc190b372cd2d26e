import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { setDatabaseUrl } from "@/lib/env";
import { acknowledgeIncident, resolveIncident } from "@/lib/incidents/members/actions";
import { applyRound } from "@/lib/incidents/rounds/apply-round";
import { joinIncident, openIncident, refreshSuspects } from "@/lib/incidents/members/membership";
import { inTransaction } from "@/lib/incidents/tx";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { registerCluster } from "@/lib/live/registry";
import { NotifyReceivers, NotifyRetry, type NotifyReceiver } from "@/lib/notify-config";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { startTestReceiver, type TestReceiver } from "@/test/notify-receiver";
import { deliverDue, type WorkerOptions } from "./worker";

// The outbox on a real PostgreSQL with real HTTP receivers on loopback: what a receiver gets, and what the
// incident's timeline says about it.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
let hook: TestReceiver;
let receivers: NotifyReceiver[];
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
  hook = await startTestReceiver();
  // The incident code reads the receivers from the environment, as the server does.
  process.env.FAULTLINE_NOTIFY_WEBHOOKS = JSON.stringify([
    { name: "hook", url: hook.url, timeoutSeconds: 2 },
    { name: "chat", url: `${hook.url}?chat`, format: "slack", events: ["opened", "resolved"] },
  ]);
  setDatabaseUrl(db.url);
  // Faultline watches "alpha" (its notifications link its page); "gamma" is a cluster only an alert names.
  registerCluster("alpha");
  receivers = NotifyReceivers.parse(JSON.parse(process.env.FAULTLINE_NOTIFY_WEBHOOKS));
});
afterAll(async () => {
  delete process.env.FAULTLINE_NOTIFY_WEBHOOKS;
  await hook.close();
  await db.close();
});
beforeEach(async () => {
  // Each test starts with an empty outbox (rows are not append-only, unlike the timeline).
  await prisma.$executeRaw`DELETE FROM "notification_outbox"`;
  hook.requests.length = 0;
  hook.delivered.clear();
  hook.answer = () => ({ status: 200 });
});

const fast = NotifyRetry.parse({ firstSeconds: 0.05, capSeconds: 1, maxAttempts: 4 });
const options = (over: Partial<WorkerOptions> = {}): WorkerOptions => ({ receivers, retry: fast, base: "https://faultline.example.org", ...over });
const member = (subject: string) => ({
  cluster: "alpha",
  signal: "openbao.sealed",
  subject,
  source: "alert" as const,
  state: "critical" as const,
  detail: "sealed",
  severity: "critical" as const,
});
/** Opens an incident and ranks its suspects, as every path does; its "opened" rows are due once that commits. */
const open = (subject: string) =>
  inTransaction(prisma, async (tx) => {
    const now = new Date();
    const opened = await openIncident(tx, [member(subject)], { now, reason: "(test)" });
    await refreshSuspects(tx, opened.incidentId, now);
    return opened;
  });
const rows = (incidentId: number) => prisma.notificationOutbox.findMany({ where: { incidentId }, orderBy: { id: "asc" } });
const events = async (incidentId: number, receiver?: string) =>
  (await prisma.incidentEvent.findMany({ where: { incidentId, kind: { startsWith: "notification_" } }, orderBy: { id: "asc" } }))
    .filter((e) => !receiver || (e.payload as { receiver?: string }).receiver === receiver)
    .map((e) => ({ kind: e.kind, summary: e.summary }));
/** Runs worker passes until nothing is pending or due within the wait. */
async function drain(opts = options(), ms = 10_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await deliverDue(prisma, opts);
    if ((await prisma.notificationOutbox.count({ where: { status: "pending" } })) === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the outbox", () => {
  it("is written in the change's transaction: a rollback leaves no row, a commit one per receiver that wants the kind", async () => {
    await expect(
      inTransaction(prisma, async (tx) => {
        await openIncident(tx, [member("rolled-back")], { now: new Date(), reason: "(test)" });
        throw new Error("the change fails after the incident was written");
      }),
    ).rejects.toThrow("the change fails");
    expect(await prisma.incident.count({ where: { subject: "rolled-back" } })).toBe(0);
    expect(await prisma.notificationOutbox.count()).toBe(0);

    const { incidentId } = await open("committed");
    await acknowledgeIncident(prisma, incidentId, { actor: "ana" });
    await resolveIncident(prisma, incidentId, { actor: "ana", resolution: "unsealed" });
    const written = await rows(incidentId);
    expect(written.map((r) => `${r.kind}->${r.receiver}`)).toEqual(["opened->hook", "opened->chat", "acknowledged->hook", "resolved->hook", "resolved->chat"]);
    expect(new Set(written.map((r) => r.idempotencyKey)).size).toBe(5);
    expect(written[0].idempotencyKey).toBe(`faultline-${incidentId}-${written[0].eventId}-hook`);
  });

  it("links the cluster's page only for a cluster Faultline watches", async () => {
    const { incidentId } = await inTransaction(prisma, async (tx) => {
      const opened = await openIncident(tx, [{ ...member("unwatched"), cluster: "gamma" }], { now: new Date(), reason: "(test)" });
      await refreshSuspects(tx, opened.incidentId, new Date());
      return opened;
    });
    await drain();
    const json = hook.requests.find((r) => r.key.startsWith(`faultline-${incidentId}-`) && r.key.endsWith("-hook"))!;
    expect(json.body.incident).toMatchObject({ cluster: "gamma", clusterLink: null });
    const slack = hook.requests.find((r) => r.key.startsWith(`faultline-${incidentId}-`) && r.key.endsWith("-chat"))!;
    expect(JSON.stringify(slack.body.blocks)).toContain("*Cluster*\\ngamma");
  });

  it("an opening waits for its suspects when they are ranked in a later transaction (as for an alert), then carries them", async () => {
    const now = new Date();
    const { incidentId } = await inTransaction(prisma, (tx) =>
      openIncident(tx, [member("ranked-later")], { now, reason: "(test)", links: { catalog: [{ id: "openbao-sealed", by: "test" }] } }),
    );
    expect(await deliverDue(prisma, options())).toBe(0);
    await inTransaction(prisma, (tx) => refreshSuspects(tx, incidentId, now));
    await drain();
    expect((hook.requests.find((r) => r.key.endsWith("-hook"))!.body.suspects as { id: string }[])[0].id).toBe("openbao-sealed");
  });

  it("delivers each once, with the key as a header and in the body, and says so on the timeline", async () => {
    const { incidentId } = await open("delivered");
    await drain();
    const keys = (await rows(incidentId)).map((r) => r.idempotencyKey);
    expect(hook.requests.map((r) => r.key).sort()).toEqual([...keys].sort());
    const json = hook.requests.find((r) => r.key.endsWith("-hook"))!;
    expect(json.body).toMatchObject({
      kind: "opened",
      idempotencyKey: json.key,
      incident: {
        id: incidentId,
        link: `https://faultline.example.org/incidents/${incidentId}`,
        cluster: "alpha",
        clusterLink: "https://faultline.example.org/clusters/alpha",
      },
    });
    expect(json.headers["content-type"]).toBe("application/json");
    const slack = hook.requests.find((r) => r.key.endsWith("-chat"))!;
    expect(slack.body).toMatchObject({ text: expect.stringContaining(`Incident #${incidentId} opened`), blocks: expect.any(Array) });
    expect(JSON.stringify(slack.body.blocks)).toContain("*Cluster*\\n<https://faultline.example.org/clusters/alpha|alpha>");
    // The two receivers are delivered side by side: either may finish first.
    expect((await events(incidentId)).sort((a, b) => a.summary.localeCompare(b.summary))).toEqual([
      { kind: "notification_sent", summary: 'notification "opened" to chat: sent (HTTP 200)' },
      { kind: "notification_sent", summary: 'notification "opened" to hook: sent (HTTP 200)' },
    ]);
    expect((await rows(incidentId)).every((r) => r.status === "sent" && r.sentAt)).toBe(true);
  });

  it("a receiver that is down loses nothing: it retries with backoff and delivers once the receiver is back", async () => {
    const { incidentId } = await open("down-then-up");
    const closed = await startTestReceiver();
    await closed.close(); // a port nothing listens on
    const down = options({ receivers: receivers.map((r) => ({ ...r, url: closed.url })) });
    await deliverDue(prisma, down);
    const [first] = await rows(incidentId);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastError: "connection refused" });
    expect(first.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 1000);
    await new Promise((r) => setTimeout(r, 120));
    await deliverDue(prisma, down);
    await drain();
    expect((await rows(incidentId)).map((r) => [r.status, r.attempts])).toEqual([
      ["sent", 3],
      ["sent", 3],
    ]);
    expect(hook.delivered.size).toBe(2);
    const timeline = await events(incidentId);
    expect(timeline.filter((e) => e.kind === "notification_retrying")).toHaveLength(4);
    expect(timeline[0].summary).toMatch(/^notification "opened" to (hook|chat): attempt 1 failed \(connection refused\); retrying in \d+ s$/);
    expect(timeline.filter((e) => e.kind === "notification_sent").map((e) => e.summary)).toEqual([
      expect.stringMatching(/sent \(HTTP 200\) on attempt 3$/),
      expect.stringMatching(/sent \(HTTP 200\) on attempt 3$/),
    ]);
  });

  it("a receiver hears of one incident's changes in order, even when the first is retried", async () => {
    const { incidentId } = await open("in-order");
    await acknowledgeIncident(prisma, incidentId, { actor: "ana" });
    await resolveIncident(prisma, incidentId, { actor: "ana" });
    hook.answer = ({ n }) => ({ status: n === 0 ? 503 : 200 });
    await drain(options({ receivers: [receivers[0]] }));
    expect(hook.requests.map((r) => `${r.body.kind} ${r.status}`)).toEqual(["opened 503", "opened 200", "acknowledged 200", "resolved 200"]);
  });

  it("a 4xx other than 408/429 is a permanent failure, shown with the receiver's reason, cleaned", async () => {
    const { incidentId } = await open("refused");
    hook.answer = () => ({ status: 404, body: `no\u0000such  hook\n\n${"x".repeat(500)}` });
    await deliverDue(prisma, options({ receivers: [receivers[0]] }));
    await deliverDue(prisma, options({ receivers: [receivers[0]] }));
    const [row] = await rows(incidentId);
    // The first 200 bytes, whitespace folded, a NUL replaced visibly.
    const reason = `HTTP 404: no\uFFFDsuch hook ${"x".repeat(185)}`;
    expect(row).toMatchObject({ status: "failed", attempts: 1, lastError: reason });
    expect(hook.requests).toHaveLength(1);
    expect((await events(incidentId, "hook"))[0]).toEqual({ kind: "notification_failed", summary: `notification "opened" to hook: failed: ${reason}` });
    // A receiver echoing the request: its bearer token does not reach the timeline.
    const { incidentId: echoed } = await open("echoes-token");
    hook.answer = () => ({ status: 401, body: "bad Authorization: Bearer s3cret-token-value-1" });
    await deliverDue(prisma, options({ receivers: [{ ...receivers[0], token: "s3cret-token-value-1" }] }));
    expect(hook.requests.at(-1)!.headers.authorization).toBe("Bearer s3cret-token-value-1");
    expect((await rows(echoed))[0].lastError).toBe("HTTP 401: bad Authorization: Bearer [token]");
    expect(JSON.stringify(await events(echoed))).not.toContain("s3cret");
    // The other receiver, gone from the configuration, fails visibly instead of waiting for ever.
    const chat = (await rows(incidentId))[1];
    expect(chat).toMatchObject({ status: "failed", lastError: "receiver chat is no longer configured (FAULTLINE_NOTIFY_WEBHOOKS)" });
  });

  it("honours Retry-After on 429 and 503, within the cap", async () => {
    const { incidentId } = await open("throttled");
    hook.answer = () => ({ status: 429, headers: { "retry-after": "30" } });
    const before = Date.now();
    await deliverDue(prisma, options({ receivers: [receivers[0]], retry: NotifyRetry.parse({ capSeconds: 20 }) }));
    const [row] = await rows(incidentId);
    expect(row.status).toBe("pending");
    const wait = (row.nextAttemptAt.getTime() - before) / 1000;
    expect(wait).toBeGreaterThan(18);
    expect(wait).toBeLessThan(22);
    expect((await events(incidentId, "hook"))[0].summary).toMatch(/attempt 1 failed \(HTTP 429: refused 429\); retrying in 20 s$/);
  });

  it("gives up after the attempts allowed, as failed on the timeline", async () => {
    const { incidentId } = await open("gives-up");
    hook.answer = () => ({ status: 503 });
    await drain(options({ receivers: [receivers[0]] }));
    const [row] = await rows(incidentId);
    expect(row).toMatchObject({ status: "failed", attempts: 4, lastError: "gave up after 4 attempts: HTTP 503: refused 503" });
    expect((await events(incidentId, "hook")).map((e) => e.kind)).toEqual([
      "notification_retrying",
      "notification_retrying",
      "notification_retrying",
      "notification_failed",
    ]);
  });

  it("an attempt cut off after the receiver got it (the process died) is sent again with the same key and body", async () => {
    const { incidentId } = await open("crash-after-send");
    // The receiver takes the notification but the answer never arrives in time: as if Faultline died before marking it sent.
    hook.answer = ({ n }) => ({ status: 200, delayMs: n === 0 ? 1500 : 0 });
    const slow = options({ receivers: [{ ...receivers[0], timeoutSeconds: 1 }] });
    await deliverDue(prisma, slow);
    expect((await rows(incidentId))[0]).toMatchObject({ status: "pending", attempts: 1 });
    await new Promise((r) => setTimeout(r, 700));
    await drain(slow);
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[0].key).toBe(hook.requests[1].key);
    expect(hook.requests[0].body).toEqual(hook.requests[1].body);
    expect(hook.delivered.get(hook.requests[0].key)).toBe(2); // the receiver dedupes these to one
    // A claim that lapsed (the worker died mid-attempt) makes the row due again, under the same key.
    const { incidentId: second } = await open("lease-lapsed");
    await prisma.$executeRaw`UPDATE "notification_outbox" SET "attempts" = 1, "next_attempt_at" = now() WHERE "incident_id" = ${second}`;
    await drain(options({ receivers: [receivers[0]] }));
    expect((await rows(second))[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("sends opened, acknowledged, resolved, reopened and suspect-changed from the rules' rounds and people's actions", async () => {
    const config = parseRulesConfig({ openAfterObservations: 2, resolveAfterSeconds: 10, reopenWindowSeconds: 600 });
    const round = (s: number, state: "ok" | "critical", detail?: string) =>
      applyRound(prisma, "beta", [signal("openbao.sealed", "openbao", state, detail ?? (state === "ok" ? "unsealed (200)" : "sealed (503)"))], at(s), config);
    await round(0, "critical");
    const id = (await round(2, "critical")).opened[0];
    await acknowledgeIncident(prisma, id, { actor: "ana" });
    await round(4, "ok");
    expect((await round(20, "ok")).resolved).toEqual([id]);
    await round(30, "critical");
    expect((await round(32, "critical")).reopened).toEqual([id]);
    const kinds = (await rows(id)).filter((r) => r.receiver === "hook").map((r) => r.kind);
    expect(kinds).toEqual(["opened", "acknowledged", "resolved", "reopened"]);
    await drain();
    const opened = hook.requests.find((r) => r.body.kind === "opened" && r.key.endsWith("-hook"))!;
    expect(opened.body.suspects).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: "openbao-sealed", link: "https://faultline.example.org/catalog/openbao-sealed" })]),
    );
    expect(opened.body.runbook).toMatchObject({ link: expect.stringMatching(/^https:\/\/faultline\.example\.org\/runbooks\/[\w-]+\?path=/) });
    // The first ranking, made as it opened, went out with "opened"; "suspect_changed" is a later change of the top one.
    expect(kinds).not.toContain("suspect_changed");
    const now = new Date();
    await inTransaction(prisma, async (tx) => {
      await tx.incidentMember.updateMany({ where: { incidentId: id }, data: { state: "ok" } });
      await joinIncident(
        tx,
        id,
        {
          ...member("master-0/1"),
          cluster: "beta",
          signal: "kms.plugin.unhealthy",
          source: "signal",
          state: "critical",
          detail: "dial unix /var/run/kmsplugin/socket.sock: connect: no such file or directory",
        },
        now,
      );
      await refreshSuspects(tx, id, now);
    });
    const changed = (await rows(id)).filter((r) => r.kind === "suspect_changed");
    expect(changed.map((r) => r.receiver)).toEqual(["hook"]);
    await drain();
    const sent = hook.requests.find((r) => r.key === changed[0].idempotencyKey)!;
    expect((sent.body.suspects as { id: string }[])[0].id).not.toBe("openbao-sealed");
  });
});
