import { quote } from "@/lib/sources/describe-input";

// A test helper: reads kube-apiserver's verbose /healthz, /readyz or /livez list, so the demo cluster's
// answers can be held against the real server's. The monitor itself does not read these lists.

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
  if (result.overall === undefined) result.problems.push('no final "<endpoint> check passed|failed" line');
  else if (result.overall === "passed" && result.checks.some((c) => !c.ok)) {
    result.problems.push("overall passed although a check failed");
  }
  return result;
}
