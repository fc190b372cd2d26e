import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { AlertmanagerPayload } from "../alerts/alertmanager";
import { applyRound } from "../rounds/apply-round";
import { receiveDelivery } from "../alerts/webhook";
import { autoTitle } from "./title";

// What an incident is called: its top suspect, unless the cluster API is down or someone gave the title.

const signalTitle = (id: string) => ({ "cluster.api.unreachable": "Cluster API unreachable", "openbao.sealed": "OpenBao sealed" })[id] ?? id;
const suspect = (id: string, title: string, signals: string[]) => ({ id, title, signals });

describe("autoTitle", () => {
  it("names the top suspect and what it is about: one subject, or the cluster when it spans several", () => {
    const active = [
      { signal: "kms.plugin.unhealthy", subject: "master-0/1" },
      { signal: "kms.plugin.unhealthy", subject: "master-1/1" },
      { signal: "openbao.sealed", subject: "openbao" },
    ];
    const base = { signal: "kms.plugin.unhealthy", subject: "master-0/1", active, signalTitle };
    expect(autoTitle({ ...base, suspects: [suspect("openbao-sealed", "OpenBao sealed", ["openbao.sealed"])] })).toEqual({
      title: "OpenBao sealed (openbao)",
      why: "top suspect openbao-sealed",
    });
    // The suspect's first active signal says what it is about: a sealed OpenBao, even when the plugins fail with it.
    expect(autoTitle({ ...base, suspects: [suspect("openbao-sealed", "OpenBao sealed", ["openbao.sealed", "kms.plugin.unhealthy"])] }).title).toBe(
      "OpenBao sealed (openbao)",
    );
    expect(autoTitle({ ...base, suspects: [suspect("jwt-expired", "JWT expired", ["kms.plugin.unhealthy"])] }).title).toBe("JWT expired (cluster)");
    expect(autoTitle({ ...base, suspects: [] })).toEqual({ title: "kms.plugin.unhealthy (master-0/1)", why: "no suspect" });
  });

  it("says the cluster API is unreachable while it is, whatever the other members suggest", () => {
    const active = [
      { signal: "cluster.api.unreachable", subject: "cluster" },
      { signal: "openbao.sealed", subject: "openbao" },
    ];
    expect(
      autoTitle({
        signal: "openbao.sealed",
        subject: "openbao",
        active,
        signalTitle,
        suspects: [suspect("openbao-sealed", "OpenBao sealed", ["openbao.sealed"])],
      }),
    ).toEqual({
      title: "Cluster API unreachable (cluster)",
      why: "cluster.api.unreachable is active",
    });
  });
});

describe("a given title stays", () => {
  let db: Awaited<ReturnType<typeof migratedDatabase>>;
  beforeAll(async () => {
    db = await migratedDatabase();
  });
  afterAll(async () => db.close());

  it("keeps the title an alert gave when a live signal joins and the suspects change", async () => {
    const payload = AlertmanagerPayload.parse({
      version: "4",
      groupKey: "g",
      status: "firing",
      receiver: "faultline",
      alerts: [
        {
          status: "firing",
          labels: { alertname: "BaoDown", cluster: "titled", signal: "openbao.unreachable", subject: "openbao", severity: "critical" },
          annotations: { summary: "Vault cluster in DC2 is down, see ticket OPS-12" },
          startsAt: at(0).toISOString(),
          fingerprint: "b0",
        },
      ],
    });
    await receiveDelivery(db.prisma, payload, undefined, { now: at(0) });
    const config = parseRulesConfig({ openAfterObservations: 1 });
    await applyRound(db.prisma, "titled", [signal("openbao.sealed", "openbao", "critical", "sealed (HTTP 503)")], at(10), config);
    const [incident] = await db.prisma.incident.findMany({ where: { cluster: "titled" }, include: { members: true, events: true } });
    expect(incident.members.map((m) => m.signal).sort()).toEqual(["openbao.sealed", "openbao.unreachable"]);
    expect(incident.events.some((e) => e.kind === "suspects_changed")).toBe(true);
    expect(incident.title).toBe("Vault cluster in DC2 is down, see ticket OPS-12");
    expect(incident.events.filter((e) => e.kind === "title_changed")).toEqual([]);
  });

  it("keeps the name while members recover, and renames when one fires again", async () => {
    const config = parseRulesConfig({ openAfterObservations: 1 });
    const round = (api: "ok" | "critical", sealed: "ok" | "critical", s: number) =>
      applyRound(
        db.prisma,
        "recovering",
        [
          signal("cluster.api.unreachable", "cluster", api, "no Kubernetes read answered: connect ECONNREFUSED"),
          signal("openbao.unreachable", "openbao", "critical", "health endpoint unreachable: connect ECONNREFUSED"),
          signal("openbao.sealed", "openbao", sealed, "sealed (HTTP 503)"),
        ],
        at(s),
        config,
      );
    await round("critical", "ok", 0);
    const title = async () => (await db.prisma.incident.findFirstOrThrow({ where: { cluster: "recovering" } })).title;
    expect(await title()).toBe("Cluster API unreachable (cluster)");
    await round("ok", "ok", 10);
    expect(await title()).toBe("Cluster API unreachable (cluster)");
    await round("ok", "critical", 20);
    const incident = await db.prisma.incident.findFirstOrThrow({ where: { cluster: "recovering" } });
    const top = (incident.suspects as { title: string }[])[0];
    expect(incident.title).toBe(`${top.title} (openbao)`);
  });
});
