import { overBound } from "./alert-bounds";
import { ALERTMANAGER_BODY_LIMIT } from "./alertmanager-limits";

// What the web edge must know of the Alertmanager webhook before it reads a delivery: its body bound (tens of
// megabytes, not the API's 1 MiB) and its refusal past it, a 503 Alertmanager retries instead of a 413 it gives
// up on. The route and the server's edge (scripts/start.ts) both take it from here. Light on purpose: the
// server loads it before Next.js.

export const WEBHOOK_ROUTE = "/api/v1/alerts/alertmanager";

export const WEBHOOK_BODY = {
  limit: ALERTMANAGER_BODY_LIMIT,
  overLimit(size: { bytes: number; declared: boolean }) {
    const refusal = overBound(size);
    console.error(`[faultline] alertmanager webhook: ${refusal.message}`);
    return refusal;
  },
};

/** The routes whose body bound is their own, for the server's edge. */
export const OWN_BODY_ROUTES = new Map([[WEBHOOK_ROUTE, WEBHOOK_BODY]]);
