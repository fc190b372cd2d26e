import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import type { FailureMode } from "@/lib/catalog/schema";
import { keepEvidence, MAX_TEXT } from "./evidence";
import { piecesOf } from "./paste";

// What an on-call pastes, in the real wording of the tools that print it, reaches the failure mode it names: the KMS
// plugin's own probe, doctor and verify-key reports (dc-tec/openbao-kubernetes-kms cmd/bao-kms-provider/probe.go@06579559,
// diagnostics.go@14a41dab, internal/cli/report.go@1e9bd2c8), kubectl describe pod, a unit's journal, an OpenBao error.

const modes = getCatalog().entries.filter((e): e is FailureMode => e.kind === "failure-mode");
const classesOf = (text: string) => keepEvidence(piecesOf(text)).classes.map((c) => c.id);
/** The failure modes that count a class for them (supports or hints), and those it counts against. */
const claimedBy = (id: string) => modes.filter((m) => m.diagnosis?.supports.includes(id) || m.diagnosis?.hints.includes(id)).map((m) => m.id);
const contradictedBy = (id: string) => modes.filter((m) => m.diagnosis?.contradicts.includes(id)).map((m) => m.id);

// [check line as printed, the class it shows, a failure mode that class counts for]
const CHECKS: [string, string, string][] = [
  ["[fail] socket.path: Unix socket - socket missing or wrong file type; check the path and provider readiness", "socket-missing", "kms-plugin-unavailable"],
  [
    "[fail] socket.path: Unix socket - access denied; check caller groups and parent-directory search permission",
    "plugin-probe-socket-access-denied",
    "kms-socket-permissions-wrong",
  ],
  [
    "[fail] kms.status: Running provider Status - Status request failed; check provider readiness, caller socket-group access, and the deadline",
    "plugin-probe-status-failed",
    "kms-stale-socket",
  ],
  [
    "[fail] kms.key_id: Active key ID - provider returned an invalid key ID; check the selected socket",
    "plugin-probe-key-id-invalid",
    "status-key-id-differs-from-encrypt",
  ],
  [
    "[fail] kms.key_id: Active key agreement - key changed during probe; wait for rotation convergence and retry",
    "kms-key-changed-during-probe",
    "key-id-flip-flops",
  ],
  [
    "[fail] kms.key_id: Peer key agreement - active key differs; check node identity and rotation convergence",
    "kms-key-changed-during-probe",
    "key-id-flip-flops",
  ],
  [
    "[fail] kms.encrypt: Running provider Encrypt - Encrypt failed; check provider readiness and OpenBao access",
    "plugin-probe-encrypt-failed",
    "openbao-unavailable",
  ],
  [
    "[fail] kms.decrypt: Running provider Decrypt - Decrypt failed or returned different bytes; check provider diagnostics and Transit decrypt permissions",
    "plugin-probe-decrypt-failed",
    "aad-mismatch",
  ],
  [
    "[fail] config.validate: Config validation - config invalid; config: file permissions unsafe: mode must not include 0037",
    "config-unsafe-permissions",
    "kms-config-permissions-unsafe",
  ],
  ["[fail] socket.group: Socket group - lookup socket group: group: unknown group kms-clients", "socket-group-unknown", "kms-socket-permissions-wrong"],
  ["[fail] jwt.local: JWT file - jwt expired: exp claim is not in the future", "jwt-expired", "jwt-expired-apiserver-down"],
  ["[fail] jwt.local: JWT file - jwt not yet valid: nbf claim is in the future", "jwt-not-yet-valid", "clock-skew"],
  [
    "[warn] kubernetes.encryption_config: EncryptionConfiguration - identity fallback remains configured",
    "encryption-identity-fallback-configured",
    "identity-fallback-left-enabled",
  ],
  [
    "[fail] openbao.auth: OpenBao JWT login - auth failed: openbao jwt login failed: permission_denied (status 403)",
    "openbao-jwt-login-rejected",
    "jwt-wrong-audience",
  ],
  ["[fail] transit.metadata: Transit metadata - openbao transit metadata read failed: not_found (status 404)", "transit-key-not-found", "transit-key-deleted"],
  ["[fail] transit.metadata: Transit metadata - openbao transit metadata read failed: sealed (status 503)", "openbao-sealed", "openbao-sealed"],
  [
    "[fail] transit.profile: Transit key profile - blocking/api_server_availability: key is soft-deleted",
    "transit-profile-soft-deleted",
    "transit-key-soft-deleted",
  ],
  [
    "[fail] transit.profile: Transit key profile - blocking/api_server_availability: minimum decryption version exceeds latest version",
    "transit-min-decryption-version-blocks",
    "transit-min-decryption-version-raised-early",
  ],
  [
    "[fail] transit.disable_upsert: Transit disable_upsert - mount allows implicit key creation",
    "transit-mount-upsert-enabled",
    "transit-key-recreated-same-name",
  ],
  ["[fail] key_id.deterministic: Key ID determinism - same metadata produced different key_id values", "kms-key-id-not-deterministic", "key-id-flip-flops"],
  [
    "[fail] kms.status_encrypt: Status/encrypt consistency - Status and Encrypt key_id values differ",
    "kms-status-encrypt-key-id-differ",
    "status-key-id-differs-from-encrypt",
  ],
  [
    "[warn] registry.state: Registry state - state file is absent; auto-bootstrap eligible=false: Transit latest_version=3 is not initial version 1",
    "registry-state-absent-bootstrap",
    "registry-state-missing",
  ],
  [
    "[warn] registry.state: Registry state - state file loaded but replay checkpoint is absent; rollback detection is not anchored",
    "registry-checkpoint-not-anchored",
    "registry-state-corrupt-or-rolled-back",
  ],
  [
    "[fail] transit.version_restrictions: Transit version restrictions - minimum decryption version blocks required historical version",
    "transit-min-decryption-version-blocks",
    "transit-min-decryption-version-raised-early",
  ],
  [
    "[fail] transit.version_restrictions: Transit version restrictions - minimum available version blocks required historical version",
    "transit-min-available-version-blocks",
    "transit-key-backup-missing",
  ],
];

describe("pasted output reaches the failure mode it names", () => {
  it.each(CHECKS)("%s", (line, cls, mode) => {
    expect(classesOf(line)).toContain(cls);
    expect(claimedBy(cls)).toContain(mode);
  });

  it("reads the plugin's answer to its own probe as a plugin that runs", () => {
    const probe =
      "probe\n[pass] socket.path: Unix socket - path is a Unix socket, not a symlink\n[fail] kms.status: Running provider Status - provider is unhealthy or not KMS v2; inspect provider diagnostics";
    expect(classesOf(probe)).toContain("plugin-probe-provider-answered");
    expect(contradictedBy("plugin-probe-provider-answered")).toEqual(expect.arrayContaining(["kms-plugin-unavailable", "kms-systemd-ordering-wrong"]));
  });

  it("finds nothing in the checks that passed or were skipped", () => {
    const passed = [
      "doctor",
      "[pass] config.load: Config load - loaded typed provider configuration",
      "[pass] config.validate: Config validation - local configuration is syntactically safe",
      "[pass] socket.group: Socket group - configured group resolves locally",
      "[pass] jwt.local: JWT file - readable and locally valid",
      "[skip] kubernetes.encryption_config: EncryptionConfiguration - no --encryption-config path supplied",
      "[pass] openbao.tls: OpenBao TLS config - CA bundle and server name are usable",
      "[pass] openbao.auth: OpenBao JWT login - authenticated with configured JWT role",
      "[pass] transit.capabilities: Transit policy capabilities - required hot-path capabilities are present",
      "[pass] transit.metadata: Transit metadata - configured key metadata is readable",
      "[pass] transit.profile: Transit key profile - key settings are suitable for KMS",
      "[pass] transit.disable_upsert: Transit disable_upsert - implicit key creation is disabled",
      "[pass] transit.probe: Transit probe - non-secret encrypt/decrypt probe succeeded",
      "[pass] key_id.deterministic: Key ID determinism - active key_id hash sha256:5f0c1e2a",
      "[pass] kms.status_encrypt: Status/encrypt consistency - local invariant holds",
      "[pass] registry.state: Registry state - loaded local key registry state and checkpoint",
      "[pass] transit.version_restrictions: Transit version restrictions - active and historical versions remain usable",
    ].join("\n");
    expect(classesOf(passed)).toEqual([]);
  });

  it("reads doctor --output json as it reads the text report", () => {
    const json = JSON.stringify(
      {
        name: "doctor",
        checks: [
          { id: "config.load", title: "Config load", status: "pass", message: "loaded typed provider configuration" },
          { id: "transit.profile", title: "Transit key profile", status: "fail", message: "blocking/api_server_availability: key is soft-deleted" },
        ],
      },
      null,
      2,
    );
    expect(classesOf(json)).toEqual(["transit-profile-soft-deleted"]);
  });

  it("reads kubectl describe pod, a unit's journal and OpenBao's own error", () => {
    const describe = [
      "Name:         openbao-kms-master-1",
      "Namespace:    kube-system",
      "Containers:",
      "  bao-kms-provider:",
      "    State:          Waiting",
      "      Reason:       CrashLoopBackOff",
      "    Restart Count:  7",
      "Events:",
      "  Type     Reason   Age                From     Message",
      "  ----     ------   ----               ----     -------",
      "  Warning  BackOff  2m (x44 over 13m)  kubelet  Back-off restarting failed container bao-kms-provider in pod openbao-kms-master-1_kube-system(6f1c2a9e-8b0d-4f3e-9a51-2d7c4e1b0a93)",
    ].join("\n");
    expect(classesOf(describe)).toEqual(expect.arrayContaining(["crash-loop", "kubelet-back-off-restarting"]));
    expect(claimedBy("kubelet-back-off-restarting")).toContain("kms-plugin-crash-loop");
    const events = [
      "Events:",
      "  Type     Reason     Age                From     Message",
      "  ----     ------     ----               ----     -------",
      '  Warning  Failed     43s (x4 over 2m)   kubelet  Failed to pull image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0": not found',
      "  Warning  Failed     43s (x4 over 2m)   kubelet  Error: ErrImagePull",
      '  Normal   BackOff    18s (x6 over 2m)   kubelet  Back-off pulling image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0"',
    ].join("\n");
    expect(classesOf(events)).toEqual(["image-pull-failure"]);
    const journal = [
      "Nov 28 02:10:01 master-0 systemd[1]: Stopped bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider.",
      "Nov 28 02:10:02 master-0 systemd[1]: Started bao-kms-provider.service - OpenBao Kubernetes KMS v2 Provider.",
    ].join("\n");
    expect(classesOf(journal)).toEqual(["systemd-unit-restarted"]);
    const bao =
      "Error writing data to transit/encrypt/kubernetes: Error making API request.\n\nURL: PUT https://bao.example.internal:8200/v1/transit/encrypt/kubernetes\nCode: 503. Errors:\n\n* Vault is sealed";
    expect(classesOf(bao)).toContain("openbao-sealed");
  });
});

describe("piecesOf", () => {
  it("keeps a multi-line error whole and cuts a long paste at lines", () => {
    const block = "Error making API request.\n\nURL: PUT https://bao/v1/transit/decrypt/k\nCode: 400. Errors:\n\n* encryption key not found";
    expect(piecesOf(block)).toEqual([block]);
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} `.padEnd(80, "."));
    const pieces = piecesOf(lines.join("\n"));
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(MAX_TEXT);
    expect(pieces.join("\n")).toBe(lines.join("\n"));
  });

  it("never splits a private key, so all of it is hidden", () => {
    // A key's last line is short: alone in a piece it would not look like a secret.
    const tail = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=";
    const pem = ["-----BEGIN RSA PRIVATE KEY-----", ...Array.from({ length: 40 }, () => "M".repeat(64)), tail, "-----END RSA PRIVATE KEY-----"].join("\n");
    const text = `${"x ".repeat(MAX_TEXT / 2 - 40)}\n${pem}\nafter`;
    const kept = keepEvidence(piecesOf(text));
    expect(kept.texts.join("\n")).not.toContain("MMMM");
    expect(kept.texts.join("\n")).not.toContain(tail);
    expect(kept.texts.join("\n")).toContain("-----BEGIN PRIVATE KEY----- [hidden]");
  });

  it("cuts a line longer than a piece after a separator, not inside a token", () => {
    const token = "hvs.CAESIJ7mXq3kzQ2b8Yd0pLr6WnT4gH5sVxA1cE9uF0oKiZ3a";
    // The token straddles the 8 KiB mark: a cut there would leave its tail, too short to look like a secret, in view.
    const line = `${"a, ".repeat(2715)}token=${token} ${"b ".repeat(3000)}`;
    expect(line.indexOf(token)).toBeLessThan(MAX_TEXT);
    expect(line.indexOf(token) + token.length).toBeGreaterThan(MAX_TEXT);
    const pieces = piecesOf(line);
    expect(pieces.join("")).toBe(line);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(MAX_TEXT);
    const shown = keepEvidence(pieces).texts.join("");
    expect(shown).toContain("token=[hidden]");
    expect(shown).not.toContain(token.slice(-8));
  });
});
