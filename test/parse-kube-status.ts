import { z } from "zod";
import { decodeBody, describeIssues, describeType, enumError, isRecord, quote } from "@/lib/sources/describe-input";

// The metav1.Status an API server returns on errors (409 apply conflict, 410 expired, 422 invalid) and
// inside watch ERROR events. A cause's JSON key is "reason" although the Go field is named Type.

const STATUS_OUTCOMES = ["Success", "Failure"] as const;

export const StatusCause = z.object({
  reason: z.string().optional(),
  message: z.string().optional(),
  field: z.string().optional(),
});
export type StatusCause = z.infer<typeof StatusCause>;

export const KubeStatus = z.object({
  kind: z.literal("Status", {
    error: (issue) => (issue.input === undefined ? "is missing" : `is ${JSON.stringify(issue.input)}, expected "Status"`),
  }),
  apiVersion: z.string().optional(),
  status: z.enum(STATUS_OUTCOMES, { error: enumError(STATUS_OUTCOMES) }).optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  code: z.number().int("code is not an integer"),
  details: z
    .object({
      name: z.string().optional(),
      group: z.string().optional(),
      kind: z.string().optional(),
      uid: z.string().optional(),
      causes: z.array(StatusCause).optional(),
      retryAfterSeconds: z.number().int().optional(),
    })
    .optional(),
});
export type KubeStatus = z.infer<typeof KubeStatus>;

export interface KubeStatusView {
  kind: "status";
  code: number;
  status?: "Success" | "Failure";
  /** Machine-readable reason such as Expired, Conflict or Invalid ("" when the server gave none). */
  reason: string;
  message: string;
  causes: StatusCause[];
  details?: { name?: string; group?: string; kind?: string; uid?: string; retryAfterSeconds?: number };
}

export interface KubeStatusProblem {
  kind: "problem";
  problem: string;
}

export function parseKubeStatus(body: unknown): KubeStatusView | KubeStatusProblem {
  const decoded = decodeBody(body);
  if (!decoded.ok) return { kind: "problem", problem: `Status body: ${decoded.error}` };
  if (!isRecord(decoded.value)) {
    return { kind: "problem", problem: `Status body is ${describeType(decoded.value)}, not an object` };
  }
  const result = KubeStatus.safeParse(decoded.value);
  if (!result.success) {
    const kind = decoded.value.kind;
    const what = typeof kind === "string" && kind !== "Status" ? `a ${quote(kind)} object` : "Status body";
    return { kind: "problem", problem: `${what} is not a valid Status: ${describeIssues(result.error).join("; ")}` };
  }
  const { details, ...status } = result.data;
  const { causes = [], ...identity } = details ?? {};
  return {
    kind: "status",
    code: status.code,
    ...(status.status ? { status: status.status } : {}),
    reason: status.reason ?? "",
    message: status.message ?? "",
    causes,
    ...(details ? { details: identity } : {}),
  };
}
