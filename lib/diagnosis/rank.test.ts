import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import type { FailureMode } from "@/lib/catalog/schema";
import { decide } from "./confidence";
import { diagnose, suspectsChanged, type ActiveSignal } from "./rank";
import { DOCTOR_CONFIG_UNSAFE } from "@/test/plugin-reports";

// Against the real catalog and real error text: what an on-call reads under "suspects".

const catalog = getCatalog();
const modes = catalog.entries.filter((e): e is FailureMode => e.kind === "failure-mode");
const rank = (active: ActiveSignal[], extra: Partial<Parameters<typeof diagnose>[0]> = {}) =>
  diagnose({ active, modes, classes: catalog.errorClasses, runbooks: catalog.runbooks, ...extra });
const plugin = (detail: string, subject = "master-0/1"): ActiveSignal => ({ signal: "kms.plugin.unhealthy", subject, state: "critical", detail });

describe("diagnosis", () => {
  it("puts the root cause above its symptoms: a sealed OpenBao explains every plugin's Transit errors", () => {
    const sealed =
      "Error making API request.\n\nURL: PUT https://openbao.openbao.svc:8200/v1/transit/encrypt/kubernetes\nCode: 503. Errors:\n\n* Vault is sealed";
    const ranked = rank([
      {
        signal: "openbao.sealed",
        subject: "openbao",
        state: "critical",
        detail: "sealed (HTTP 503): every KMS encrypt and decrypt fails until it is unsealed",
      },
      plugin(sealed, "master-0/1"),
      plugin(sealed, "master-1/1"),
      plugin(sealed, "master-2/1"),
      {
        signal: "apiserver.kms-providers.failing",
        subject: "master-0",
        state: "critical",
        detail: `kms-providers check fails: 1_secrets: got unexpected healthz status: ${sealed}`,
      },
    ]);
    expect(ranked[0].id).toBe("openbao-sealed");
    expect(ranked[0].confidence).toBeGreaterThan(0.9);
    expect(ranked[0].undecided).toBeUndefined();
    expect(ranked[0].supports.join("\n")).toContain('the text says "Vault is sealed"');
    expect(ranked[0].supports.join("\n")).toContain("master-0/1, master-1/1, master-2/1");
    const symptom = ranked.find((s) => s.id === "kms-plugin-unavailable");
    expect(symptom === undefined || symptom.score < ranked[0].score / 2).toBe(true);
  });

  it("lets a root cause with its own text account for the dead plugin it explains, and only then", () => {
    const socket =
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/openbao-kms/kms.sock: connect: no such file or directory"';
    const kubelet =
      'kubelet: "command failed" err="failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///run/containerd/containerd.sock\\": rpc error: code = Unavailable"';
    const withCause = rank([plugin(`${socket}; ${kubelet}`)]);
    expect(withCause[0].id).toBe("kms-static-pod-runtime-unavailable");
    expect(withCause[0].supports.join("\n")).toContain("explains");
    // The same dead plugin without the runtime's text: the runtime may still be listed, but no cascade speaks for it.
    const plain = rank([plugin(socket)]);
    expect(plain[0].id).toBe("kms-plugin-unavailable");
    for (const s of plain) expect(s.supports.join("\n"), s.id).not.toContain("explains");
  });

  it("counts a wrapper's words a little against the causes that do not account for them", () => {
    // The plugin redacts the TLS failure to a class: only the causes that can fail TLS account for it.
    const ranked = rank(
      ["master-0/1", "master-1/1", "master-2/1"].map((s) =>
        plugin("status probe failed: Transit metadata read failed: openbao transit metadata read failed: tls_failed", s),
      ),
    );
    const tls = modes
      .filter((m) => m.diagnosis?.hints.includes("tls-handshake-failed") || m.diagnosis?.supports.includes("tls-handshake-failed"))
      .map((m) => m.id);
    expect(tls).toContain("openbao-tls-certificate-expired");
    expect(tls).toContain(ranked[0].id);
    const unrelated = ranked.find((s) => s.id === "kms-selinux-apparmor-block");
    expect(unrelated === undefined || unrelated.contradicts.some((c) => c.includes('does not explain "failed: tls_failed"'))).toBe(true);
  });

  it("puts the beacon down above the wrappers it leaves restarting: a needed signal firing is the cause's own evidence", () => {
    const wrapper: ActiveSignal = {
      signal: "wrapper.restarting",
      subject: "payments/payments-api-7d9f8c6b5-x2k4p",
      state: "critical",
      detail: "api: CrashLoopBackOff after 5 restarts; last exit 3 (Error); kubelet: back-off 5m0s restarting failed container=api",
    };
    const beacon: ActiveSignal = { signal: "beacon.unreachable", subject: "beacon", state: "critical", detail: "the bridge cannot reach the beacon: HTTP 503" };
    const ranked = rank([wrapper, beacon]);
    expect(ranked[0].id).toBe("beacon-down");
    expect(ranked[0].supports.join("\n")).toContain("explains");
    // Restarting wrappers alone: nothing to blame on the beacon, and no cascade speaks for it.
    for (const s of rank([wrapper])) expect(s.supports.join("\n"), s.id).not.toContain("explains");
  });

  it("tells apart failure modes that share one signal and the words 'token' and 'certificate', by the real error class", () => {
    const login = (error: string) =>
      plugin(`Error making API request.\n\nURL: PUT https://openbao.openbao.svc:8200/v1/auth/jwt/login\nCode: 400. Errors:\n\n* ${error}`);
    expect(rank([login("error validating token: invalid expiration time (exp) claim: token is expired")])[0].id).toBe("jwt-expired-apiserver-down");
    expect(rank([login("error validating token: invalid audience (aud) claim: audience claim does not match any expected audience")])[0].id).toBe(
      "jwt-wrong-audience",
    );
    expect(rank([login("error validating token: error verifying token signature: no known key successfully validated the token signature")])[0].id).toBe(
      "jwks-rotated",
    );
    expect(rank([plugin('Put "https://openbao.internal:8200/v1/auth/cert/login": remote error: tls: expired certificate')])[0].id).toBe(
      "auth-certificate-expired",
    );
    expect(rank([plugin("tls: failed to verify certificate: x509: certificate has expired or is not yet valid")])[0].id).toBe(
      "openbao-tls-certificate-expired",
    );
  });

  it("counts a healthy signal against a cause that would make it fire", () => {
    const refused = plugin('Put "https://openbao.internal:8200/v1/transit/encrypt/k8s-kek": dial tcp 10.0.0.40:8200: connect: connection refused');
    const reachable = rank([refused], { healthy: [{ signal: "openbao.unreachable", subject: "openbao" }] });
    const down = rank([refused, { signal: "openbao.unreachable", subject: "openbao", state: "critical", detail: "health endpoint unreachable" }]);
    const withHealthy = reachable.find((s) => s.id === "openbao-unavailable")!;
    expect(withHealthy.contradicts.join("\n")).toContain("openbao.unreachable is ok");
    expect(down[0].id).toBe("openbao-unavailable");
    expect(withHealthy.score).toBeLessThan(down[0].score);
  });

  it("says when it cannot tell two causes apart, and names the runbook question that would", () => {
    const ranked = rank([
      { signal: "kms.latency.high", subject: "master-0", state: "critical", detail: "p99 2.3s" },
      plugin("rpc error: code = DeadlineExceeded desc = context deadline exceeded"),
    ]);
    const u = ranked[0].undecided!;
    expect(u).toBeDefined();
    expect([ranked[0].id, u.with].sort()).toEqual(["apiserver-decrypt-storm", "openbao-audit-backend-pressure"]);
    expect(u.question).toMatch(/\?$/);
    expect(u.runbook?.path[0]).toBe(catalog.runbooks.find((r) => r.id === u.runbook!.id)!.root);
    expect(u.runbook?.path.at(-1)).toBe(u.runbook?.node);
  });

  it("reads a crash loop from flapping, not from the words; a steady refused dial cannot tell a dead plugin from the socket it left", () => {
    const refused =
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/kmsplugin/kms-1.sock: connect: connection refused"';
    expect(rank([{ ...plugin(refused), flaps: 3 }])[0].id).toBe("kms-plugin-crash-loop");
    // A refused dial means a socket file with no listener: the plugin died without removing it (listener.go probeDead).
    const steady = rank([{ ...plugin(refused), flaps: 0 }]);
    expect([steady[0].id, steady[0].undecided?.with].sort()).toEqual(["kms-plugin-unavailable", "kms-stale-socket"]);
    expect(steady[0].undecided?.likely).toBeUndefined();
    // A missing socket file is a plugin that is not running (a clean stop removes it), not a stale one.
    const missing = rank([plugin(refused.replace("connection refused", "no such file or directory"))]);
    expect(missing[0].id).toBe("kms-plugin-unavailable");
    expect(missing[0].score - (missing.find((s) => s.id === "kms-stale-socket")?.score ?? 0)).toBeGreaterThan(3);
  });

  it("answers a plugin that gave up at start-up with the cause its exit line names, the dead plugin as a view of it", () => {
    const gone =
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/openbao-kms/kms.sock: connect: no such file or directory"';
    const dead = [plugin(gone, "master-0/1"), plugin(gone, "master-1/1")];
    const source = "the journal of bao-kms-provider.service on master-0";
    const exit =
      "bao-kms-provider[26100]: initialize status cache: bootstrap status probe did not succeed within 30s: openbao transit metadata read failed: sealed (status 503)";
    const ranked = rank(dead, {
      texts: [
        { source, text: "systemd[1]: Started bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider." },
        { source, text: exit },
      ],
    });
    expect(ranked[0].id).toBe("openbao-sealed");
    expect(ranked[0].facets?.map((f) => f.id)).toContain("kms-plugin-unavailable");
    expect(ranked[0].rootCause?.reason).toContain("gave up at start-up");
    // The same words not on an exit line say nothing of why the plugin is down.
    const apart = rank(dead, { texts: [{ source, text: "openbao transit metadata read failed: sealed (status 503)" }] });
    expect(apart.find((s) => s.id === "openbao-sealed")?.facets ?? []).toEqual([]);
  });

  it("answers a plugin whose configuration fails validation with the problem the validation names, from its doctor's report too", () => {
    // A killed plugin's socket refuses, and each new instance reclaimed the socket the one before left (its own log).
    const down = [
      plugin(
        'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/kmsplugin/kms-1.sock: connect: connection refused"',
        "master-1/1",
      ),
    ];
    const log = {
      source: "kube-apiserver-master-1 kms-plugin-1 (previous instance)",
      text: '{"ts":"2026-11-28T09:20:00.2Z","level":"WARN","message":"socket.stale_removed","operation":"socket.stale_removed","status":"ok"}',
    };
    expect(rank(down, { texts: [log] })[0].id).toBe("kms-stale-socket");
    const doctor = { source: "the output pasted by alice", text: DOCTOR_CONFIG_UNSAFE };
    const ranked = rank(down, { texts: [log, doctor] });
    expect(ranked[0].id).toBe("kms-config-permissions-unsafe");
    expect(ranked[0].facets?.map((f) => f.id)).toContain("kms-plugin-unavailable");
    expect(ranked[0].rootCause?.reason).toContain('"config invalid;"');
    // The unsafe file named on its own, not as the reason validation failed, does not say why the plugin is down.
    const apart = rank(down, { texts: [log, { ...doctor, text: "config: file permissions unsafe: mode must not include 0037" }] });
    expect(apart.find((s) => s.id === "kms-config-permissions-unsafe")?.facets ?? []).toEqual([]);
    // kube-apiserver joins each provider's dial and the plugin's exit with "; ": the missing socket a second provider's
    // dial shows after the exit is how the exit looks, and the socket directory the validation names is the cause.
    const clause =
      'failed to perform status section of the healthz check for KMS Provider kms-openbao, error: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/openbao-kms/kms.sock: connect: no such file or directory"; bao-kms-provider: config invalid; server.socketPath: parent directory must exist';
    const parent = rank([
      plugin(clause),
      { signal: "apiserver.kms-providers.failing", subject: "api", state: "critical", detail: `1_secrets: ${clause}; 1_configmaps: ${clause}` },
    ]);
    expect(parent[0].id).toBe("kms-socket-unavailable");
    expect(parent[0].facets?.map((f) => f.id)).toEqual(["kms-plugin-unavailable"]);
  });

  it("reads the order of a journal's lines: a unit stopped and started again with no failure between is a requested restart", () => {
    const gone = plugin(
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/openbao-kms/kms.sock: connect: no such file or directory"',
    );
    const lines = [
      "systemd[1]: Stopped bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider.",
      "systemd[1]: Started bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider.",
    ];
    const upgrade = (texts: { source: string; text: string }[]) => rank([gone], { texts }).find((s) => s.id === "kms-plugin-package-upgrade-restart");
    const journal = upgrade(lines.map((text) => ({ source: "the journal of bao-kms-provider.service on master-0", text })));
    expect(journal?.supports.join("\n")).toContain("systemd stopped and started the unit");
    const scattered = upgrade(lines.map((text, i) => ({ source: `the output pasted by alice (${i})`, text })));
    expect(scattered?.supports.join("\n") ?? "").not.toContain("systemd stopped and started the unit");
  });

  it("tells the plugin's own AAD refusal from a ciphertext Transit cannot authenticate after that check passed", () => {
    const refused = rank([plugin("rpc error: code = InvalidArgument desc = annotations do not match key snapshot")]);
    expect(refused[0].id).toBe("aad-mismatch");
    const transit = rank([
      plugin(
        "Error making API request. URL: PUT https://openbao.internal:8200/v1/transit/decrypt/k8s-kek Code: 400. Errors: * cipher: message authentication failed",
      ),
    ]);
    expect(transit[0].id).toBe("transit-key-recreated-same-name");
    expect(transit.map((s) => s.id)).toContain("aad-mismatch");
  });

  it("names an audit device that fails fast from its redacted 500, without the latency a blocked one would add", () => {
    const ranked = rank([plugin("openbao transit encrypt failed: unavailable (status 500)")], {
      healthy: [{ signal: "kms.latency.high", subject: "master-0/1_secrets" }],
    });
    expect(ranked[0].id).toBe("openbao-audit-backend-pressure");
    expect(ranked[0].contradicts.join("\n")).not.toContain("kms.latency.high is ok");
  });

  it("names a likely cause yet asks about a second that holds a tenth of the evidence, and asks nothing of a clear one", () => {
    const pair = (a: number, b: number) => [
      { id: "openbao-sealed", title: "OpenBao sealed", confidence: a },
      { id: "openbao-unavailable", title: "OpenBao unavailable", confidence: b },
    ];
    const byId = new Map(modes.map((m) => [m.id, m]));
    const likely = decide(pair(0.8, 0.15), byId, catalog.runbooks);
    expect(likely).toMatchObject({ with: "openbao-unavailable", likely: true });
    expect(likely?.question).toMatch(/\?$/);
    expect(decide(pair(0.95, 0.04), byId, catalog.runbooks)).toBeUndefined();
    const close = decide(pair(0.5, 0.4), byId, catalog.runbooks);
    expect(close?.with).toBe("openbao-unavailable");
    expect(close?.likely).toBeUndefined();
  });

  it("puts a failure mode an alert named first, and ranks nothing when nothing is active", () => {
    const ranked = rank([{ signal: "openbao.sealed", subject: "openbao", state: "critical" }], {
      linked: [{ id: "jwt-expired-apiserver-down", by: "KMSPluginTokenExpiring" }],
    });
    expect(ranked[0]).toMatchObject({ id: "jwt-expired-apiserver-down", linkedBy: ["KMSPluginTokenExpiring"] });
    expect(ranked[0].reason).toBe("named by the alert KMSPluginTokenExpiring");
    expect(ranked[1].id).toBe("openbao-sealed");
    expect(rank([])).toEqual([]);
  });

  it("does not make a suspect of an unknown signal: OpenBao that does not answer is not a sealed OpenBao", () => {
    expect(rank([{ signal: "openbao.sealed", subject: "openbao", state: "critical" }])[0].id).toBe("openbao-sealed");
    expect(rank([{ signal: "openbao.sealed", subject: "openbao", state: "unknown", detail: "Vault is sealed?" }])).toEqual([]);
    const down = rank([
      { signal: "openbao.unreachable", subject: "openbao", state: "critical", detail: "health endpoint unreachable: connect ECONNREFUSED" },
      { signal: "openbao.sealed", subject: "openbao", state: "unknown", detail: "OpenBao did not answer" },
    ]);
    expect(down[0].id).not.toBe("openbao-sealed");
  });

  it("reads hostile text without failing: a NUL, a lone surrogate, five megabytes", () => {
    const huge = `\u0000\ud800${"x".repeat(5_000_000)} Vault is sealed`;
    const ranked = rank([plugin(huge), plugin("Code: 503. Errors: * Vault is sealed\u0000", "master-1/1")]);
    expect(ranked[0].id).toBe("openbao-sealed");
  });

  it("notices when the order or the members change", () => {
    expect(suspectsChanged([{ id: "a" }, { id: "b" }], [{ id: "a" }, { id: "b" }])).toBe(false);
    expect(suspectsChanged([{ id: "a" }, { id: "b" }], [{ id: "b" }, { id: "a" }])).toBe(true);
    expect(suspectsChanged([{ id: "a" }], [{ id: "a" }, { id: "c" }])).toBe(true);
  });
});
