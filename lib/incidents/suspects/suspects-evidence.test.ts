import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { applyRound } from "../rounds/apply-round";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { getIncident } from "../history/queries";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import type { Signal } from "@/lib/signals/signal-model";

// An incident's suspects use what the incident knows beyond its members' sentences: how often each member
// flapped (its transitions on the timeline), and the cluster's signals that are ok now. Real PostgreSQL.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
});
afterAll(async () => db.close());

const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });
const REFUSED =
  'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/kmsplugin/kms-1.sock: connect: connection refused"';
const plugin = (state: "ok" | "critical") =>
  signal("kms.plugin.unhealthy", "master-0/1", state, state === "ok" ? "keyID 1 healthy" : `master-0: keyID 1 error: ${REFUSED}`);
const top = async (id: number) => (await getIncident(prisma, id))!.suspects[0];

describe("suspects from an incident's own history", () => {
  it("names a crash loop once the plugin's signal flaps, where a steady failure names a dead plugin", async () => {
    const opened = await applyRound(prisma, "flappy", [plugin("critical")], at(0), config);
    const id = opened.opened[0];
    expect((await top(id)).id).toBe("kms-plugin-unavailable");
    for (let s = 30, state: "ok" | "critical" = "ok"; s <= 150; s += 30, state = state === "ok" ? "critical" : "ok")
      await applyRound(prisma, "flappy", [plugin(state)], at(s), config);
    const now = await top(id);
    expect(now.id).toBe("kms-plugin-crash-loop");
    expect(now.supports?.join("\n")).toMatch(/kms\.plugin\.unhealthy flapped \d+ times on master-0\/1/);
  });

  it("counts a healthy OpenBao against 'OpenBao unavailable' when only a plugin says it cannot connect", async () => {
    const refused = 'Put "https://openbao.internal:8200/v1/transit/encrypt/k8s-kek": dial tcp 10.0.0.40:8200: connect: connection refused';
    const round = (bao: "ok" | "critical") => [
      signal("kms.plugin.unhealthy", "master-1/1", "critical", `master-1: keyID 1 error: ${refused}`),
      signal("openbao.unreachable", "openbao", bao, bao === "ok" ? "answers HTTP 200 (active)" : "health endpoint unreachable"),
    ];
    const id = (await applyRound(prisma, "reachable", round("ok"), at(0), config)).opened[0];
    const all = (await getIncident(prisma, id))!.suspects;
    expect(all[0].id).not.toBe("openbao-unavailable");
    expect(all.find((s) => s.id === "openbao-unavailable")?.contradicts?.join("\n")).toContain("openbao.unreachable is ok");
  });

  it("ranks on the plugin's whole error kept with the member, not only on its clipped sentence", async () => {
    const expired =
      'Put "https://openbao.internal:8200/v1/transit/encrypt/k8s-kek": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-11-22T12:00:00Z is after 2026-11-21T00:00:00Z';
    // The sentence people read is cut before the words that name the cause; the problem keeps the whole error.
    const cut = (state: "critical" | "ok"): Signal => ({
      ...signal("kms.plugin.unhealthy", "master-2/1", state, state === "ok" ? "keyID 1 healthy" : `master-2: keyID 1 error: ${expired.slice(0, 60)}…`),
      ...(state === "ok" ? {} : { problem: { kind: "plugin-error", subject: "master-2/1", fields: { node: "master-2", keyID: "1", detail: expired } } }),
    });
    const id = (await applyRound(prisma, "clipped", [cut("critical")], at(0), config)).opened[0];
    const member = await prisma.incidentMember.findFirstOrThrow({ where: { incidentId: id } });
    expect(member.texts).toContain(expired);
    expect((await top(id)).id).toBe("openbao-tls-certificate-expired");
    expect((await top(id)).supports?.join("\n")).toContain("x509: certificate has expired or is not yet valid");
    // The same sentence without its problem (an older member, an alert) names no certificate failure.
    const bare = (await applyRound(prisma, "clipped-bare", [{ ...cut("critical"), problem: undefined }], at(0), config)).opened[0];
    expect((await top(bare)).id).not.toBe("openbao-tls-certificate-expired");
  });
});
