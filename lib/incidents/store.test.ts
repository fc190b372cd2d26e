import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { acknowledgeIncident, addNote, resolveIncident } from "./members/actions";
import { applyRound, sweepIncidents } from "./rounds/apply-round";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { Conflict, NotFound } from "@/lib/errors";
import { getIncident, listIncidents } from "./history/queries";
import { renderMarkdown } from "./history/postmortem";
import { recordRunbookStep, startRunbookSession } from "./sessions/runbook-sessions";
import { at, migratedDatabase, signal } from "@/test/incident-db";

// The incident store on a real PostgreSQL: what an on-call sees through the API after monitor rounds.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
});
afterAll(async () => db.close());

const config = parseRulesConfig({ openAfterObservations: 2, resolveAfterSeconds: 60, reopenWindowSeconds: 600, groupWindowSeconds: 120 });
const sealed = (state: "ok" | "critical") => [
  signal("openbao.sealed", "openbao", state, state === "ok" ? "unsealed (200)" : "sealed (503): every KMS encrypt and decrypt fails until it is unsealed"),
  signal("kms.plugin.unhealthy", "master-0/1", "ok"),
];

describe("incidents from monitor rounds", () => {
  it("opens after the debounce, survives a restart without duplicating, resolves when healthy and reopens on recurrence", async () => {
    expect((await applyRound(prisma, "alpha", sealed("critical"), at(0), config)).opened).toEqual([]);
    const opened = await applyRound(prisma, "alpha", sealed("critical"), at(2), config);
    expect(opened.opened).toHaveLength(1);
    const id = opened.opened[0];
    // A restarted server runs the same rounds again from what it stored: nothing new opens.
    for (let s = 4; s <= 20; s += 2)
      expect(await applyRound(prisma, "alpha", sealed("critical"), at(s), config)).toEqual({
        opened: [],
        joined: [],
        reopened: [],
        resolved: [],
        transitions: 0,
      });
    let detail = (await getIncident(prisma, id))!;
    expect(detail.incident).toMatchObject({ cluster: "alpha", status: "open", severity: "critical", title: "OpenBao sealed (openbao)" });
    expect(detail.timeline.map((e) => e.kind)).toEqual(["status_change", "suspects_changed"]);
    expect((detail.incident.suspects as { id: string }[])[0].id).toBe("openbao-sealed");

    await applyRound(prisma, "alpha", sealed("ok"), at(30), config);
    expect((await applyRound(prisma, "alpha", sealed("ok"), at(89), config)).resolved).toEqual([]);
    expect((await applyRound(prisma, "alpha", sealed("ok"), at(90), config)).resolved).toEqual([id]);
    await applyRound(prisma, "alpha", sealed("critical"), at(200), config);
    expect((await applyRound(prisma, "alpha", sealed("critical"), at(202), config)).reopened).toEqual([id]);
    detail = (await getIncident(prisma, id))!;
    expect(detail.incident).toMatchObject({ status: "open", reopenCount: 1, resolvedAt: null });
    expect(detail.timeline.map((e) => `${e.kind}:${e.summary}`)).toEqual([
      expect.stringMatching(/^status_change:opened: openbao.sealed on openbao critical for 2 consecutive observations/),
      expect.stringMatching(/^suspects_changed:top suspect: OpenBao sealed \(openbao-sealed, ((>99|\d+)%|the only match)\)$/),
      "signal_transition:openbao.sealed on openbao: critical → ok",
      "status_change:resolved: every signal healthy for 60s",
      "status_change:reopened: openbao.sealed on openbao critical for 2 consecutive observations",
    ]);
    expect(await prisma.incident.count({ where: { cluster: "alpha" } })).toBe(1);
  });

  it("groups signals firing together on a cluster and lists open incidents first", async () => {
    const signals = (plugin: "ok" | "critical") => [
      signal("openbao.unreachable", "openbao", "critical", "connect ECONNREFUSED"),
      signal("kms.plugin.unhealthy", "master-1/1", plugin, "transit: connection refused"),
    ];
    await applyRound(prisma, "beta", signals("ok"), at(0), config);
    const first = await applyRound(prisma, "beta", signals("ok"), at(2), config);
    await applyRound(prisma, "beta", signals("critical"), at(30), config);
    const joined = await applyRound(prisma, "beta", signals("critical"), at(32), config);
    expect(joined.joined).toEqual(first.opened);
    const detail = (await getIncident(prisma, first.opened[0]))!;
    expect(detail.members.map((m) => `${m.signal}:${m.state}`)).toEqual(["openbao.unreachable:critical", "kms.plugin.unhealthy:critical"]);

    await resolveIncident(prisma, first.opened[0], { actor: "ana", resolution: "network fixed" }, at(40));
    const list = await listIncidents(prisma, {});
    expect(list.map((i) => i.status)).toEqual(
      [...list.map((i) => i.status)].sort((a, b) => ["open", "acknowledged", "resolved"].indexOf(a) - ["open", "acknowledged", "resolved"].indexOf(b)),
    );
    expect((await listIncidents(prisma, { cluster: ["beta"] })).map((i) => [i.status, i.members])).toEqual([["resolved", 2]]);
    expect(await listIncidents(prisma, { cluster: ["beta"], status: ["open"] })).toEqual([]);
    // Resolved by hand while still firing: no new incident until the signal recovers and fires again.
    for (let s = 42; s < 60; s += 2) expect((await applyRound(prisma, "beta", signals("critical"), at(s), config)).reopened).toEqual([]);
  });
});

describe("what people do", () => {
  it("acknowledges once, notes, resolves once, with clear refusals", async () => {
    await applyRound(prisma, "gamma", [signal("webhook.missing", "cluster", "critical")], at(0), config);
    const id = (await applyRound(prisma, "gamma", [signal("webhook.missing", "cluster", "critical")], at(2), config)).opened[0];
    await expect(acknowledgeIncident(prisma, 999_999, { actor: "ana" })).rejects.toThrow(NotFound);
    const acked = await acknowledgeIncident(prisma, id, { actor: "ana" }, at(5));
    expect(acked).toMatchObject({ status: "acknowledged", acknowledgedBy: "ana" });
    await expect(acknowledgeIncident(prisma, id, { actor: "bo" }, at(6))).rejects.toThrow(
      new Conflict(`incident ${id} was already acknowledged by ana at ${at(5).toISOString()}`),
    );
    const note = await addNote(prisma, id, { actor: "bo", text: "webhook deleted during the change window", idempotencyKey: "k1" }, at(7));
    const again = await addNote(prisma, id, { actor: "bo", text: "webhook deleted during the change window", idempotencyKey: "k1" }, at(8));
    expect([note.added, again.added, again.event.id]).toEqual([true, false, note.event.id]);
    await resolveIncident(prisma, id, { actor: "ana" }, at(9));
    await expect(resolveIncident(prisma, id, { actor: "bo" })).rejects.toThrow(Conflict);
    await expect(acknowledgeIncident(prisma, id, { actor: "bo" })).rejects.toMatchObject({ name: "Conflict", message: expect.stringContaining("is resolved") });
  });

  it("walks a runbook with answers pre-filled from live data and exports the path in the postmortem", async () => {
    const live = [
      signal("openbao.unreachable", "openbao", "critical", "connect ECONNREFUSED 10.0.0.5:8200"),
      signal("kms.plugin.unhealthy", "master-0/1", "critical", "transit: dial tcp: connection refused"),
    ];
    await applyRound(prisma, "delta", live, at(0), config);
    const id = (await applyRound(prisma, "delta", live, at(2), config)).opened[0];
    const session = await startRunbookSession(prisma, id, { actor: "ana", runbookId: "openbao-sealed-or-unreachable" }, at(10));
    await expect(recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "B", answer: "No" }, live, at(11))).rejects.toMatchObject({
      name: "Conflict",
      message: expect.stringContaining("stands at A"),
    });
    await recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "A" }, live, at(11));
    await expect(recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "B", answer: "Maybe" }, live, at(12))).rejects.toMatchObject({
      name: "Invalid",
      fields: { answer: ["must be one of: No, Yes"] },
    });
    const b = await recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "B", answer: "No" }, live, at(12));
    expect(b.step).toMatchObject({
      answer: "No",
      to: "C",
      suggested: { answer: "No", signal: "openbao.unreachable", state: "critical" },
      followedSuggestion: true,
    });
    await recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "C", answer: "No" }, live, at(13));
    await recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "D", answer: "Yes" }, live, at(14));
    await recordRunbookStep(
      prisma,
      id,
      session.id,
      { actor: "ana", node: "E", answer: "Yes", evidence: "systemctl status openbao: active (running)" },
      live,
      at(15),
    );
    const done = await prisma.runbookSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(done).toMatchObject({ outcome: "E1", path: ["A", "B", "C", "D", "E", "E1"] });
    expect(done.finishedAt).toEqual(at(15));
    await expect(recordRunbookStep(prisma, id, session.id, { actor: "ana", node: "E1" }, live, at(16))).rejects.toThrow(Conflict);

    await addNote(prisma, id, { actor: "bo", text: "<script>alert(1)</script> | *not bold*" }, at(17));
    await resolveIncident(prisma, id, { actor: "ana", resolution: "firewall rule restored" }, at(20));
    const markdown = renderMarkdown((await getIncident(prisma, id))!);
    expect(markdown).toContain("# Incident");
    expect(markdown).toMatch(/## Suspects\n\n1\. \*\*/);
    expect(markdown).toContain("2. B Does /v1/sys/health answer from the plugin's node? : **No**".replace(" :", ":"));
    expect(markdown).toContain("Live data suggested **No** from openbao.unreachable (critical: openbao: connect ECONNREFUSED 10.0.0.5:8200)");
    expect(markdown).toContain("Ended at E1");
    expect(markdown).toContain("\\<script\\>alert\\(1\\)\\</script\\> \\| \\*not bold\\*");
    expect(markdown).not.toContain("<script>");
  });
});

describe("the timeline is append-only", () => {
  it("refuses to rewrite or delete an event", async () => {
    const event = await prisma.incidentEvent.findFirstOrThrow();
    await expect(prisma.incidentEvent.update({ where: { id: event.id }, data: { summary: "rewritten" } })).rejects.toThrow(/append-only/);
    await expect(prisma.incidentEvent.delete({ where: { id: event.id } })).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRawUnsafe(`TRUNCATE "incident_events" CASCADE`)).rejects.toThrow(/append-only/);
    expect((await prisma.incidentEvent.findUniqueOrThrow({ where: { id: event.id } })).summary).toBe(event.summary);
  });

  it("resolves an alert-only incident of a cluster nobody monitors by the sweep", async () => {
    const incident = await prisma.incident.create({
      data: {
        cluster: "remote",
        memberKey: "remote\u001fX\u001fy",
        signal: "X",
        subject: "y",
        title: "X",
        severity: "warning",
        status: "open",
        source: "alert",
        openedAt: at(0),
        lastSeenAt: at(0),
        updatedAt: at(0),
      },
    });
    await prisma.incidentMember.create({
      data: {
        incidentId: incident.id,
        memberKey: "remote\u001fX\u001fy",
        cluster: "remote",
        signal: "X",
        subject: "y",
        source: "alert",
        state: "resolved",
        detail: "X",
        open: true,
        joinedAt: at(0),
        changedAt: at(10),
        healthySince: at(10),
      },
    });
    expect(await sweepIncidents(prisma, at(69), config)).toEqual([]);
    expect(await sweepIncidents(prisma, at(70), config)).toEqual([incident.id]);
  });
});
