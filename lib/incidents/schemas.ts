import { z } from "zod";
import { cleanText } from "@/lib/text/outside-text";
import { decodeCursor } from "./history/cursor";
import { SEVERITIES, STATUSES } from "./history/queries";
import { parseSearch } from "./history/search";

// Request shapes of the incidents API. The actor of an action is the signed-in person (lib/auth): a body's
// `actor`, which older clients send, is accepted and ignored, so nobody can act under another name.

const Actor = z.string().max(1000).optional();
// A comma-separated list; an error names the field (not "status.0") and the values it refused.
const list = <T extends readonly [string, ...string[]]>(values: T) =>
  z.string().transform((s, ctx) => {
    const items = s
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean);
    const refused = items.filter((v) => !values.includes(v));
    if (refused.length === 0) return items as T[number][];
    ctx.addIssue({ code: "custom", message: `must be among: ${values.join(", ")} (not ${refused.join(", ")})` });
    return z.NEVER;
  });

// A day (2026-03-01: from its start; as `to`, up to its end, so the day is included) or an instant with its
// offset (2026-03-01T12:00:00Z), on when an incident opened or last reopened.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const moment = (edge: "start" | "end") =>
  z.string().transform((s, ctx) => {
    const day = DAY.exec(s);
    const instant = day ? new Date(`${s}T00:00:00Z`) : z.iso.datetime({ offset: true }).safeParse(s).success ? new Date(s) : undefined;
    if (!instant || Number.isNaN(instant.getTime()) || (day && instant.toISOString().slice(0, 10) !== s)) {
      ctx.addIssue({ code: "custom", message: "must be a date (2026-03-01) or a time with its offset (2026-03-01T12:00:00Z)" });
      return z.NEVER;
    }
    if (day && edge === "end") instant.setUTCDate(instant.getUTCDate() + 1);
    // PostgreSQL and the driver's ISO text agree on these years only.
    if (instant.getUTCFullYear() < 1970 || instant.getUTCFullYear() > 9999) {
      ctx.addIssue({ code: "custom", message: "must be between the years 1970 and 9999" });
      return z.NEVER;
    }
    return instant;
  });

export const IncidentListQuery = z
  .strictObject({
    // Cluster names come from alert labels too, so anything is searchable; what PostgreSQL cannot hold (a NUL)
    // becomes U+FFFD, which no stored name contains.
    cluster: z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((v) => cleanText(v.trim(), 256))
          .filter(Boolean),
      )
      .optional(),
    status: list(STATUSES).optional(),
    severity: list(SEVERITIES).optional(),
    limit: z.coerce.number().int("must be a whole number").min(1, "must be 1-500").max(500, "must be 1-500").optional(),
    // Words to find in titles, subjects, suspects and notes (search.ts); a NUL or lone surrogate becomes U+FFFD.
    q: z
      .string()
      .max(500, "at most 500 characters")
      .transform((s) => (s.trim() ? parseSearch(cleanText(s, 500)) : undefined))
      .optional(),
    from: moment("start").optional(),
    to: moment("end").optional(),
    /** Where the previous page ended: its `next`. */
    cursor: z
      .string()
      .transform((s, ctx) => {
        const key = decodeCursor(s);
        if (key) return key;
        ctx.addIssue({ code: "custom", message: "is not a cursor of this list (pass the next value of an answer as it was given)" });
        return z.NEVER;
      })
      .optional(),
  })
  .refine((q) => !q.from || !q.to || q.from < q.to, { path: ["to"], message: "must be after from" });
export type IncidentListQuery = z.infer<typeof IncidentListQuery>;

export const IncidentId = z.coerce
  .number({ message: "must be an incident number" })
  .int("must be an incident number")
  .min(1, "must be an incident number")
  .max(2_147_483_647, "must be an incident number");

/** /incidents/[id]/... */
export const IncidentParams = z.object({ id: IncidentId });
/** A runbook session's number: one message, whatever is wrong with it. */
const SessionId = z.unknown().transform((value, ctx) => {
  const id = IncidentId.safeParse(value);
  if (id.success) return id.data;
  ctx.addIssue({ code: "custom", message: "must be a session number" });
  return z.NEVER;
});
/** /incidents/[id]/runbook-sessions/[sid]/... */
export const SessionParams = IncidentParams.extend({ sid: SessionId });

/** A retried note with the same Idempotency-Key is added once. */
export const NoteHeaders = z.object({
  "Idempotency-Key": z.string().trim().min(1, "must be 1-200 characters").max(200, "must be 1-200 characters").optional(),
});

export const AcknowledgeBody = z.strictObject({ actor: Actor, note: z.string().trim().min(1).max(2000).optional() });
export type AcknowledgeBody = z.infer<typeof AcknowledgeBody>;

export const ResolveBody = z.strictObject({ actor: Actor, resolution: z.string().trim().min(1).max(2000).optional() });
export type ResolveBody = z.infer<typeof ResolveBody>;

/** Reading an incident's logs takes no field: who asks is the signed-in person. */
export const ReadLogsBody = z.strictObject({});

export const NoteBody = z.strictObject({ actor: Actor, text: z.string().trim().min(1, "must not be empty").max(10_000, "at most 10,000 characters") });
export type NoteBody = z.infer<typeof NoteBody>;

export const StartSessionBody = z.strictObject({
  actor: Actor,
  runbookId: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a runbook id")
    .optional(),
});
export type StartSessionBody = z.infer<typeof StartSessionBody>;

export const StepBody = z.strictObject({
  actor: Actor,
  node: z.string().trim().min(1, "must name the step being answered").max(100),
  answer: z.string().trim().min(1).max(200).optional(),
  note: z.string().trim().min(1).max(2000).optional(),
  evidence: z.unknown().optional(),
});
export type StepBody = z.infer<typeof StepBody>;

/** The webhook's ?cluster= (its first value), for alerts without a cluster label. */
export const WebhookSearch = z
  .instanceof(URLSearchParams)
  .transform((params): { cluster?: string } => (params.has("cluster") ? { cluster: params.get("cluster")! } : {}))
  .pipe(
    z.object({
      cluster: z
        .string()
        .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "must be a lowercase cluster name")
        .optional(),
    }),
  );

export const ExportQuery = z.strictObject({ format: z.enum(["markdown", "json"], { message: "must be markdown or json" }).default("markdown") });

/** Output an on-call pastes (PASTE_BODY_LIMIT bounds the body): any text with something in it. */
export const EvidenceBody = z.strictObject({
  actor: Actor,
  text: z
    .string({ error: (issue) => (issue.input === undefined ? "is required: the output to add" : "must be text (a string of the output to add)") })
    .refine((s) => s.trim().length > 0, "must not be empty"),
});
export type EvidenceBody = z.infer<typeof EvidenceBody>;
