import { Unavailable } from "@/lib/errors";
import { ALERTMANAGER_ALERT_LIMIT, ALERTMANAGER_BODY_LIMIT } from "./alertmanager-limits";

// A delivery over Faultline's bounds, refused with a 503 Alertmanager retries. Light on purpose: the server's edge
// (webhook-body.ts, loaded before Next.js) needs it, and must not load the catalog.

/** Seconds Alertmanager is asked to wait before it retries (it retries any 5xx with its own backoff regardless). */
export const RETRY_AFTER = "30";

/**
 * The refusal past a bound: "try again later", so Alertmanager keeps the group and sends it again (it gives
 * up a 4xx as unrecoverable). The edge answers it as a 503, also for a body it stops reading itself.
 */
export function overBound(size: { bytes: number; declared: boolean } | { alerts: number }): Unavailable {
  const what = "alerts" in size ? `${size.alerts} alerts` : `${size.declared ? "" : "more than "}${size.bytes} bytes`;
  const limit = "alerts" in size ? `${ALERTMANAGER_ALERT_LIMIT} alerts` : `${ALERTMANAGER_BODY_LIMIT} bytes`;
  const error = `delivery of ${what} is over Faultline's limit of ${limit}; nothing was recorded and Alertmanager keeps the group. Split the group (group_by) or set max_alerts in the receiver.`;
  return new Unavailable(error, { retryAfterSeconds: Number(RETRY_AFTER), extra: { retry: true } });
}
