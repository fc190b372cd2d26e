import { clipLine } from "@/lib/model/clip-text";
import type { OpenBaoHealth, TransitKey, TransitKeyProblem } from "@/lib/sources/probes/parse-openbao";
import { createSignal, type ProblemOf, type Signal, type SignalId } from "./signal-model";

// OpenBao's seal state and the Transit key the KMS plugin wraps DEKs with. Each input yields every check
// it can answer; a check it cannot answer (sealed? when unreachable) is "unknown", not "ok". A check that does
// not apply because another one fires (standby while sealed) is "ok" with a detail saying so, never a second alarm.

export type OpenBaoInput = OpenBaoHealth | { unreachable: true; error: string };

/** A parsed Transit key plus the versions stored data still needs, or the reason it could not be read. */
export type TransitInput =
  (TransitKey & { versionsInUse?: number[] }) | { kind: "problem"; problem: string; failure?: TransitKeyProblem["failure"]; name?: string };

const OPENBAO = "openbao";
const DETAIL_LIMIT = 300;

export function deriveOpenBaoSignals(input: OpenBaoInput): Signal[] {
  if ("unreachable" in input) {
    const detail = `health endpoint unreachable: ${clipLine(input.error, DETAIL_LIMIT)}`;
    return [
      createSignal("openbao.unreachable", OPENBAO, "critical", detail, input, { kind: "openbao-unreachable", fields: { error: input.error } }),
      ...unknowns(["openbao.sealed", "openbao.uninitialized", "openbao.standby"], OPENBAO, "OpenBao did not answer", input, {
        kind: "openbao-unreachable",
        fields: { error: input.error },
      }),
    ];
  }
  const health = input;
  const code = `HTTP ${health.httpStatus}`;
  const problem = health.problem ? `; ${clipLine(health.problem, DETAIL_LIMIT)}` : "";
  const unanswered = health.state === "unexpected" ? `${code} does not say` : undefined;
  const signals: Signal[] = [];
  const facts = { httpStatus: health.httpStatus, state: health.state, problem: health.problem ?? null };

  if (health.state === "unexpected") {
    signals.push(
      createSignal("openbao.unreachable", OPENBAO, "critical", `answers ${code}, which is not a sys/health status${problem}`, health, {
        kind: "openbao-unexpected-status",
        fields: facts,
      }),
    );
  } else if (health.state === "dr-secondary") {
    signals.push(
      createSignal("openbao.unreachable", OPENBAO, "critical", `answers as a DR secondary (${code}), which serves no client requests${problem}`, health, {
        kind: "openbao-dr-secondary",
        fields: facts,
      }),
    );
  } else {
    signals.push(createSignal("openbao.unreachable", OPENBAO, "ok", `answers ${code} (${health.state})`, health));
  }

  if (unanswered) signals.push(createSignal("openbao.sealed", OPENBAO, "unknown", unanswered, health, { kind: "openbao-unexpected-status", fields: facts }));
  else if (health.state === "sealed") {
    signals.push(
      createSignal("openbao.sealed", OPENBAO, "critical", `sealed (${code}): every KMS encrypt and decrypt fails until it is unsealed${problem}`, health, {
        kind: "openbao-sealed",
        fields: facts,
      }),
    );
  } else if (health.state === "uninitialized") {
    // openbao.uninitialized fires for this; an unknown here would open a second incident of its own.
    signals.push(createSignal("openbao.sealed", OPENBAO, "ok", `uninitialized (${code}): sealed does not apply`, health));
  } else signals.push(createSignal("openbao.sealed", OPENBAO, "ok", `unsealed (${code})`, health));

  if (unanswered)
    signals.push(createSignal("openbao.uninitialized", OPENBAO, "unknown", unanswered, health, { kind: "openbao-unexpected-status", fields: facts }));
  else if (health.state === "uninitialized") {
    signals.push(
      createSignal("openbao.uninitialized", OPENBAO, "critical", `not initialized (${code}): there are no keys to decrypt with${problem}`, health, {
        kind: "openbao-uninitialized",
        fields: facts,
      }),
    );
  } else signals.push(createSignal("openbao.uninitialized", OPENBAO, "ok", "initialized", health));

  if (health.state === "standby" || health.state === "perf-standby") {
    signals.push(
      createSignal(
        "openbao.standby",
        OPENBAO,
        "warning",
        `answers as a ${health.state} (${code}): expected on standbys, a problem if no node is active${problem}`,
        health,
        { kind: "openbao-standby", fields: facts },
      ),
    );
  } else if (health.state === "active") {
    signals.push(createSignal("openbao.standby", OPENBAO, "ok", `active (${code})`, health));
  } else if (unanswered) {
    signals.push(createSignal("openbao.standby", OPENBAO, "unknown", unanswered, health, { kind: "openbao-unexpected-status", fields: facts }));
  } else {
    // Sealed, uninitialized or a DR secondary: the signal that fires for that says it; standby is no second problem.
    signals.push(createSignal("openbao.standby", OPENBAO, "ok", `${health.state} (${code}): standby does not apply`, health));
  }
  return signals;
}

export function deriveTransitSignals(input: TransitInput): Signal[] {
  if (input.kind === "problem") {
    const subject = input.name ? `transit/${input.name}` : "transit";
    // OpenBao's own "no" (an errors list, as for a key that does not exist) is a missing key; anything else could not be read.
    const unread = {
      kind: input.failure === "read-failed" ? "transit-key-missing" : "transit-key-unreadable",
      fields: { key: input.name ?? null, problem: input.problem },
    };
    return [
      createSignal("transit.key.missing", subject, "critical", clipLine(input.problem, DETAIL_LIMIT), input, unread),
      ...unknowns(["transit.key.deletion-allowed", "transit.key.min-decryption-raised"], subject, "the Transit key could not be read", input, unread),
    ];
  }
  const key = input;
  const subject = `transit/${key.name}`;
  const signals: Signal[] = [
    key.softDeleted
      ? createSignal("transit.key.missing", subject, "critical", "the key is soft-deleted: no encrypt or decrypt until it is restored", key, {
          kind: "transit-key-soft-deleted",
          fields: { key: key.name },
        })
      : createSignal("transit.key.missing", subject, "ok", `readable; latest version ${key.latestVersion}`, key),
    key.deletionAllowed
      ? createSignal(
          "transit.key.deletion-allowed",
          subject,
          "critical",
          "deletion_allowed is true: one DELETE destroys every KEK version and all data encrypted under it",
          key,
          { kind: "transit-key-deletion-allowed", fields: { key: key.name } },
        )
      : createSignal("transit.key.deletion-allowed", subject, "ok", "deletion_allowed is false", key),
  ];
  if (key.versionsInUse) signals.push(checkVersionsInUse(key, key.versionsInUse, subject));
  return signals;
}

function checkVersionsInUse(key: TransitKey, inUse: number[], subject: string): Signal {
  const needed = [...new Set(inUse.filter((v) => Number.isInteger(v) && v > 0))].sort((a, b) => a - b);
  const evidence = { ...key, versionsInUse: needed };
  if (needed.length === 0) {
    return createSignal("transit.key.min-decryption-raised", subject, "ok", "no stored data is known to need a key version", evidence);
  }
  const blocked = needed.filter((v) => v < key.minDecryptionVersion);
  // A version below min_available_version has been trimmed: gone for good, not merely disabled.
  const gone = needed.filter((v) => !key.versions.includes(v));
  if (blocked.length === 0 && gone.length === 0) {
    return createSignal(
      "transit.key.min-decryption-raised",
      subject,
      "ok",
      `min_decryption_version ${key.minDecryptionVersion} is at or below every version in use (${needed.join(", ")})`,
      evidence,
    );
  }
  const parts = [
    ...(blocked.length > 0
      ? [`min_decryption_version ${key.minDecryptionVersion} is above version ${blocked.join(", ")} that stored data still needs, so those decrypts fail`]
      : []),
    ...(gone.length > 0 ? [`version ${gone.join(", ")} is no longer in the key`] : []),
  ];
  return createSignal("transit.key.min-decryption-raised", subject, "critical", parts.join("; "), evidence, {
    kind: gone.length > 0 && blocked.length === 0 ? "transit-key-version-gone" : "transit-key-min-decryption-raised",
    fields: { key: key.name, minDecryptionVersion: key.minDecryptionVersion, blockedVersions: blocked.join(", "), goneVersions: gone.join(", ") },
  });
}

function unknowns(ids: SignalId[], subject: string, detail: string, evidence: unknown, problem: ProblemOf): Signal[] {
  return ids.map((id) => createSignal(id, subject, "unknown", detail, evidence, problem));
}
