import { quote } from "@/lib/sources/describe-input";

// kube-apiserver health endpoints. Plugin health is only visible here (no metric carries it): the verbose
// list says *that* kms-providers failed ("reason withheld"), /healthz/kms-providers says *which* provider.

export interface HealthCheck {
  name: string;
  ok: boolean;
  /** Set when the check was skipped with ?exclude=. */
  excluded?: boolean;
  reason?: string;
}

export interface VerboseHealth {
  checks: HealthCheck[];
  overall?: "passed" | "failed";
  endpoint?: "healthz" | "readyz" | "livez";
  problems: string[];
}

export function parseVerboseHealth(body: string): VerboseHealth {
  const result: VerboseHealth = { checks: [], problems: [] };
  if (typeof body !== "string") {
    result.problems.push("health body is not a string");
    return result;
  }
  // Without ?verbose a passing endpoint answers just "ok".
  if (body.trim() === "ok") return { ...result, overall: "passed" };
  body.split(/\r?\n/).forEach((rawLine, i) => {
    const line = rawLine.trim();
    if (line === "") return;
    const check = /^\[([+-])\](\S+) (.*)$/.exec(line);
    if (check) {
      const [, sign, name, rest] = check;
      if (sign === "+") {
        const excluded = rest === "excluded: ok";
        if (rest !== "ok" && !excluded) result.problems.push(`line ${i + 1}: passing check ${name} says ${quote(rest)}`);
        result.checks.push({ name, ok: true, ...(excluded ? { excluded } : {}) });
      } else {
        const failed = /^failed: (.*)$/.exec(rest);
        if (!failed) result.problems.push(`line ${i + 1}: failing check ${name} says ${quote(rest)}, not "failed: <reason>"`);
        result.checks.push({ name, ok: false, reason: failed ? failed[1] : rest });
      }
      return;
    }
    const verdict = /^(healthz|readyz|livez) check (passed|failed)$/.exec(line);
    if (verdict) {
      result.endpoint = verdict[1] as VerboseHealth["endpoint"];
      result.overall = verdict[2] as VerboseHealth["overall"];
      return;
    }
    result.problems.push(`line ${i + 1}: not a health check line: ${quote(line)}`);
  });
  if (result.overall === undefined) result.problems.push("no final \"<endpoint> check passed|failed\" line");
  else if (result.overall === "passed" && result.checks.some((c) => !c.ok)) {
    result.problems.push("overall passed although a check failed");
  }
  return result;
}

export interface KmsProviderHealth {
  /** The provider name from the EncryptionConfiguration, e.g. 2_secrets; the check name if unrecognised. */
  name: string;
  /** The wrapped check, e.g. kms-provider-0 (its index in the configuration). */
  check?: string;
  healthy: boolean;
  error?: string;
}

export interface KmsProvidersHealth {
  ok: boolean;
  httpStatus: number;
  /** Only failing providers: the endpoint names nobody when all is well. */
  providers: KmsProviderHealth[];
  problem?: string;
}

const ERROR_PREFIX = "internal server error: ";

export function parseKmsProvidersHealth(httpStatus: number, body: string): KmsProvidersHealth {
  const text = typeof body === "string" ? body.trim() : "";
  const result: KmsProvidersHealth = { ok: false, httpStatus, providers: [] };
  if (typeof body !== "string") return { ...result, problem: "body is not a string" };
  if (httpStatus === 200) {
    return text === "ok" ? { ...result, ok: true } : { ...result, ok: true, problem: `HTTP 200 with body ${quote(text)}, expected "ok"` };
  }
  if (httpStatus === 404) {
    return { ...result, problem: "HTTP 404: no kms-providers check here (it is on /healthz and /readyz, never /livez)" };
  }
  if (httpStatus !== 500) return { ...result, problem: `HTTP ${httpStatus}: expected 200 or 500` };
  if (!text.startsWith(ERROR_PREFIX)) {
    return { ...result, problem: `HTTP 500 body does not start with ${quote(ERROR_PREFIX)}: ${quote(text)}` };
  }
  // utilerrors.Aggregate prints one error bare and several as "[a, b]"; each is "<check>: <error>".
  let errors = text.slice(ERROR_PREFIX.length);
  const aggregated = errors.startsWith("[") && errors.endsWith("]");
  if (aggregated) errors = errors.slice(1, -1);
  const items = aggregated ? errors.split(/, (?=kms-provider-\d+: )/) : [errors];
  const problems: string[] = [];
  result.providers = items.map((item) => {
    const checked = /^(kms-provider-\d+): ([\s\S]*)$/.exec(item);
    const check = checked?.[1];
    const message = checked ? checked[2] : item;
    if (!checked) problems.push(`could not find the kms-provider-<n> check in ${quote(item)}`);
    // v2: "kmsv2 Provider 2_secrets is not healthy, error: ..."; v1: "... for KMS Provider x, error: ...".
    const named = /\bProvider (\S+?)(?: is not healthy)?, error: ([\s\S]*)$/.exec(message);
    return {
      name: named ? named[1] : (check ?? ""),
      ...(check ? { check } : {}),
      healthy: false,
      error: named ? named[2] : message,
    };
  });
  if (problems.length > 0) result.problem = problems.join("; ");
  return result;
}
