import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/free-port";
import { startJournalGateway, type JournalEntry, type RunningGateway } from "@/test/journal-gateway";
import { logSettings } from "./log-reading";
import { journalUrl, readJournal } from "./read-journal";

// A plugin unit's journal read through the real systemd-journal-gatewayd, serving files the real
// systemd-journal-remote wrote: the unit's own lines and systemd's about it, merged, the newest N, bounded.

const UNIT = "bao-kms-provider.service";
const NOW = new Date(Date.UTC(2026, 10, 28, 9, 0, 0));
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);

const plugin = (s: number, message: string): JournalEntry => ({
  at: ago(s),
  fields: { _SYSTEMD_UNIT: UNIT, SYSLOG_IDENTIFIER: "bao-kms-provider", _PID: "4242", _HOSTNAME: "master-1", PRIORITY: "4", MESSAGE: message },
});
const systemd = (s: number, message: string): JournalEntry => ({
  at: ago(s),
  fields: { _SYSTEMD_UNIT: "init.scope", UNIT, SYSLOG_IDENTIFIER: "systemd", _PID: "1", _HOSTNAME: "master-1", PRIORITY: "6", MESSAGE: message },
});
const kubelet = (s: number, message: string): JournalEntry => ({
  at: ago(s),
  fields: { _SYSTEMD_UNIT: "kubelet.service", SYSLOG_IDENTIFIER: "kubelet", _PID: "900", _HOSTNAME: "master-1", PRIORITY: "6", MESSAGE: message },
});

const SEALED =
  '{"ts":"2026-11-28T08:59:30.1Z","level":"WARN","message":"openbao.request","operation":"openbao.request","openbao_operation":"transit metadata read","status":"sealed","duration_ms":4.2,"error_class":"sealed"}';

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startJournalGateway([
    // Two hours of an older, quiet plugin, then a restart systemd was asked for, then OpenBao sealed.
    ...Array.from({ length: 400 }, (_, i) => plugin(7200 - i * 10, `{"level":"INFO","message":"auth.login","status":"ok","n":${i}}`)),
    systemd(130, "Stopping bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider..."),
    systemd(125, "Stopped bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider."),
    systemd(124, "Started bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider."),
    kubelet(100, 'E1128 08:58:20.000000     900 kubelet.go:2412] "Error syncing pod" err="not ours"'),
    plugin(30, SEALED),
  ]);
});
afterAll(async () => gateway?.stop());

const settings = (over: Partial<ReturnType<typeof logSettings>> = {}) => ({ ...logSettings({ journal: { unit: UNIT, url: gateway.url } }), ...over });

describe("a plugin unit's journal through systemd-journal-gatewayd", () => {
  it("reads the unit's newest lines and systemd's about it, in time order, and nothing of other units", async () => {
    const s = settings({ tailLines: 5, sinceSeconds: 86_400 });
    const r = await readJournal(s.journal!, "master-1", s, NOW);
    expect(r.refused).toBeUndefined();
    expect(r).toMatchObject({ kind: "journal", key: `journal:master-1/${UNIT}`, source: `journal of ${UNIT} on master-1`, cut: false });
    expect(r.lines).toEqual([
      '2026-11-28T08:06:30.000Z master-1 bao-kms-provider[4242]: {"level":"INFO","message":"auth.login","status":"ok","n":399}',
      "2026-11-28T08:57:50.000Z master-1 systemd[1]: Stopping bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider...",
      "2026-11-28T08:57:55.000Z master-1 systemd[1]: Stopped bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider.",
      "2026-11-28T08:57:56.000Z master-1 systemd[1]: Started bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider.",
      `2026-11-28T08:59:30.000Z master-1 bao-kms-provider[4242]: ${SEALED}`,
    ]);
    expect(r.lines.join("\n")).not.toContain("kubelet");
    expect(r.bytes).toBeGreaterThan(500);
  });

  it("keeps to sinceSeconds and tailLines, and cuts at limitBytes without a half entry", async () => {
    const recent = await readJournal(settings().journal!, "master-1", settings({ tailLines: 300, sinceSeconds: 60 }), NOW);
    expect(recent.lines).toEqual([expect.stringContaining(SEALED)]);
    const many = await readJournal(settings().journal!, "master-1", settings({ tailLines: 300, sinceSeconds: 86_400 }), NOW);
    expect(many.lines).toHaveLength(300);
    const small = await readJournal(settings().journal!, "master-1", settings({ tailLines: 300, sinceSeconds: 86_400, limitBytes: 2048 }), NOW);
    expect(small.cut).toBe(true);
    expect(small.bytes).toBeLessThanOrEqual(2 * 2048);
    expect(small.lines.length).toBeGreaterThan(0);
    for (const line of small.lines) expect(line).toMatch(/^2026-11-28T\S+ master-1 \S+\[\d+\]: /);
  });

  it("refuses visibly: a gatewayd that does not answer, a node with no address, a node name that is not a name", async () => {
    const down = { unit: UNIT, url: `http://127.0.0.1:${await freePort()}` };
    const refused = await readJournal(down, "master-1", settings(), NOW);
    expect(refused.lines).toEqual([]);
    expect(refused.refused).toMatch(/ECONNREFUSED/);
    const perNode = { unit: UNIT, nodes: { "master-0": gateway.url } };
    expect((await readJournal(perNode, "master-1", settings(), NOW)).refused).toBe(
      'no gatewayd address for node "master-1" in the clusters file (journal.url or journal.nodes)',
    );
    expect(journalUrl({ unit: UNIT, url: "http://{node}:19531" }, "evil.example/../x?y")).toBeUndefined();
    expect(journalUrl({ unit: UNIT, url: "http://{node}:19531" }, "master-1")?.host).toBe("master-1:19531");
  });
});
