import { createHash, timingSafeEqual } from "node:crypto";

// Machines (Alertmanager's webhook, Prometheus's scrape of /metrics) prove themselves with a bearer token from
// the configuration instead of a browser's Origin. Compared in constant time over SHA-256 digests, so neither
// the token's bytes nor its length leak through timing.

/** What a machine route asks for: its configured token, if any. */
export interface MachineRoute {
  /** The environment variable that configures it, named in refusals (never its value). */
  variable: string;
  token?: string;
}

/**
 * Whether the route demands a bearer token. Today: whenever one is configured. Sign-in (lib/auth) makes it
 * required whenever sign-in is on, by passing `signInOn` (a route required without a token refuses everyone).
 */
export function machineTokenRequired(route: MachineRoute, signInOn = false): boolean {
  return route.token !== undefined || signInOn;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Whether an Authorization header carries exactly `token` as a bearer credential. */
export function bearerMatches(authorization: string | undefined, token: string | undefined): boolean {
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(authorization ?? "");
  // Compared even when absent, so a missing header costs what a wrong one does.
  const sent = digest(match?.[1] ?? "");
  const expected = digest(token ?? "");
  return timingSafeEqual(sent, expected) && match !== null && token !== undefined;
}

export type MachineCheck = { ok: true; authenticated: boolean } | { ok: false; error: string };

/** The verdict on a request to a machine route. `authenticated`: its token was shown (the Origin rule is then skipped). */
export function checkMachine(route: MachineRoute | undefined, authorization: string | undefined, signInOn = false): MachineCheck {
  if (!route || !machineTokenRequired(route, signInOn)) return { ok: true, authenticated: false };
  if (route.token === undefined) return { ok: false, error: `this route needs a bearer token and none is configured; set ${route.variable}` };
  if (!authorization) return { ok: false, error: "a bearer token is required (Authorization: Bearer <token>)" };
  if (!bearerMatches(authorization, route.token)) return { ok: false, error: "the bearer token is wrong" };
  return { ok: true, authenticated: true };
}

/** The machine routes and the variables that configure their tokens. */
export function machineRoutes(tokens: { webhook?: string; metrics?: string }): Map<string, MachineRoute> {
  return new Map([
    ["/api/v1/alerts/alertmanager", { variable: "FAULTLINE_WEBHOOK_TOKEN", token: tokens.webhook }],
    ["/metrics", { variable: "FAULTLINE_METRICS_TOKEN", token: tokens.metrics }],
  ]);
}
