import { z } from "zod";

// Where incident notifications go (docs/notifications.md): FAULTLINE_NOTIFY_WEBHOOKS, a JSON list of receivers, and
// FAULTLINE_NOTIFY_RETRY. Beside lib/env.ts, which reads them, so that neither imports lib/notifications.

export const NOTIFICATION_KINDS = ["opened", "acknowledged", "resolved", "reopened", "suspect_changed"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const receiverUrl = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL without user:password@ (a bearer token goes in tokenEnv)");

export const NotifyReceiver = z.strictObject({
  /** Shown on the timeline and in logs instead of the URL, which may hold a secret (Slack's do). */
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1-64 letters, digits, '.', '_' or '-'"),
  url: receiverUrl,
  format: z.enum(["json", "slack"], { message: "must be json or slack" }).default("json"),
  /** The name of an environment variable holding a bearer token for this receiver. */
  tokenEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]{0,127}$/, "must be the name of an environment variable (A-Z, 0-9, _)")
    .optional(),
  /** The kinds to send; all when absent. */
  events: z
    .array(z.enum(NOTIFICATION_KINDS, { message: `must be one of ${NOTIFICATION_KINDS.join(", ")}` }))
    .min(1, "must name at least one kind")
    .optional(),
  timeoutSeconds: z.number().min(1, "must be 1-60").max(60, "must be 1-60").default(10),
});
export type NotifyReceiver = z.infer<typeof NotifyReceiver> & { token?: string };

export const NotifyReceivers = z
  .array(NotifyReceiver)
  .max(20, "at most 20 receivers")
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((r, i) => {
      if (seen.has(r.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${r.name}" is used twice` });
      seen.add(r.name);
    });
  });

export const NotifyRetry = z.strictObject({
  /** The delay after the first failed attempt; it doubles each attempt, with jitter, up to capSeconds. */
  firstSeconds: z.number().min(0.05).max(60).default(1),
  capSeconds: z.number().min(1).max(3600).default(300),
  /** A notification still not delivered after this many attempts, or this long after the change, is given up as failed. */
  maxAttempts: z.number().int().min(1).max(50).default(20),
  maxAgeSeconds: z
    .number()
    .min(1)
    .max(7 * 86_400)
    .default(86_400),
});
export type NotifyRetry = z.infer<typeof NotifyRetry>;
export const DEFAULT_NOTIFY_RETRY: NotifyRetry = NotifyRetry.parse({});

/** Fills each receiver's bearer token from the variable it names; an error message names the receiver, never the value. */
export function resolveTokens(receivers: NotifyReceiver[], source: Record<string, string | undefined>): NotifyReceiver[] | string {
  const out: NotifyReceiver[] = [];
  for (const r of receivers) {
    if (!r.tokenEnv) {
      out.push(r);
      continue;
    }
    const token = source[r.tokenEnv];
    if (!token) return `receiver "${r.name}": tokenEnv ${r.tokenEnv} is not set`;
    if (!/^[\x21-\x7e]{1,4096}$/.test(token)) return `receiver "${r.name}": ${r.tokenEnv} must be 1-4096 printable characters without spaces`;
    out.push({ ...r, token });
  }
  return out;
}
