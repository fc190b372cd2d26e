import { z } from "zod";

// Environment variables that hold JSON (FAULTLINE_INCIDENT_RULES, FAULTLINE_ROLE_GROUPS, FAULTLINE_NOTIFY_*): parsed,
// then checked by their schema, with one message that names the field ("0.url: must be ...").

/** A zod transform for a variable holding JSON of `schema`; `expected` finishes "must be ..." when it is not JSON. */
export function jsonVar<T>(schema: z.ZodType<T>, expected: string) {
  return z.string().transform((text, ctx): T => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: `must be ${expected}` });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    ctx.addIssue({ code: "custom", message: `${issue.path.join(".") || "value"}: ${issue.message}` });
    return z.NEVER;
  });
}
