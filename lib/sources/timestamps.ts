import { z } from "zod";
import { quote } from "./describe-input";

// Kubernetes and Go's time.Time marshal RFC 3339 with a "T" separator; anything else would make the
// staleness math built on these parsers silently wrong, so it is rejected where it is read.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function isRfc3339(value: string): boolean {
  return RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}

export const Rfc3339 = z.string().refine(isRfc3339, {
  error: (issue) => `${typeof issue.input === "string" ? quote(issue.input) : "value"} is not an RFC 3339 timestamp`,
});
