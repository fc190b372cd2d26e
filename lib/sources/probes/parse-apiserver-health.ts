import { quote } from "@/lib/sources/describe-input";

// kube-apiserver's /healthz/kms-providers: plugin health is only visible here (no metric carries it). The
// verbose /readyz list says only *that* kms-providers failed; this endpoint says *which* provider.

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

export function parseKmsProvidersHealth(httpStatus: number, body: unknown): KmsProvidersHealth {
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
