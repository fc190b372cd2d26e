import * as oidc from "openid-client";
import { loadEnv, type Env } from "@/lib/env";
import { NotFound } from "@/lib/errors";
import { processSlot } from "@/lib/process-slot";
import { cleanText } from "@/lib/text/outside-text";
import { recordAudit } from "./audit";
import { ANONYMOUS, NO_ROLE, principalOf } from "./principal";
import { noteRefusal } from "./refusals";
import { PEER_HEADER } from "./peer";
import { cookieValue, SESSION_COOKIE } from "./session-cookie";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createSession, endSession, renewExpired, sessionRow, type Session } from "./sessions";

// FAULTLINE_AUTH=oidc: the authorization code flow with PKCE (openid-client), sessions kept in Postgres.
// /auth/start sends the browser to the provider, /auth/callback comes back with a code, /api/v1/auth/signout ends it.

const FLOW_COOKIE = "faultline_oidc";
/** A session without a refresh token lasts as long as the provider's access token said, at most this long. */
const MAX_SESSION_SECONDS = 12 * 3600;

type OidcEnv = Env & {
  FAULTLINE_OIDC_ISSUER: string;
  FAULTLINE_OIDC_CLIENT_ID: string;
  FAULTLINE_OIDC_CLIENT_SECRET: string;
  FAULTLINE_OIDC_REDIRECT_URL: string;
};

function oidcEnv(): OidcEnv {
  const env = loadEnv();
  if (env.FAULTLINE_AUTH !== "oidc") throw new NotFound("OIDC sign-in is not configured here (FAULTLINE_AUTH is not oidc)");
  return env as OidcEnv;
}

// Per module instance, not process-wide: Next bundles openid-client into each route's chunk, and a Configuration
// from another chunk's copy fails its instanceof check.
const store: { config?: Promise<oidc.Configuration> } = {};
/** The provider's discovered configuration, once (retried after a failure). */
async function configuration(env: OidcEnv): Promise<oidc.Configuration> {
  const issuer = new URL(env.FAULTLINE_OIDC_ISSUER);
  // http:// is accepted only for a loopback issuer (lib/auth-config.ts): a provider started beside Faultline.
  const options = issuer.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : undefined;
  store.config ??= oidc.discovery(issuer, env.FAULTLINE_OIDC_CLIENT_ID, env.FAULTLINE_OIDC_CLIENT_SECRET, undefined, options).catch((error: unknown) => {
    store.config = undefined;
    throw error;
  });
  return store.config;
}

const secure = (env: OidcEnv) => new URL(env.FAULTLINE_OIDC_REDIRECT_URL).protocol === "https:";
function cookie(name: string, value: string, path: string, maxAge: number, env: OidcEnv): string {
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure(env) ? "; Secure" : ""}`;
}
function redirect(location: string, cookies: string[] = [], status = 302): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const c of cookies) headers.append("Set-Cookie", c);
  return new Response(null, { status, headers });
}

/** GET /auth/start: to the provider, with a fresh state and PKCE verifier kept in a short-lived cookie. */
export async function startSignIn(): Promise<Response> {
  const env = oidcEnv();
  const config = await configuration(env);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: env.FAULTLINE_OIDC_REDIRECT_URL,
    scope: "openid email profile groups offline_access",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  return redirect(url.href, [cookie(FLOW_COOKIE, `${state}.${verifier}`, "/auth", 600, env)]);
}

const groupsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [])
    .filter((g): g is string => typeof g === "string")
    .map((g) => cleanText(g.trim(), 256))
    .filter(Boolean)
    .slice(0, 500);

function lifetime(expiresIn: number | undefined): number {
  return Math.min(Math.max(expiresIn ?? 300, 1), MAX_SESSION_SECONDS);
}

/** GET /auth/callback: the code for tokens (state and PKCE checked), then a server-side session. */
export async function finishSignIn(request: Request): Promise<Response> {
  const env = oidcEnv();
  const peer = request.headers.get(PEER_HEADER) ?? undefined;
  const clearFlow = cookie(FLOW_COOKIE, "", "/auth", 0, env);
  // A failed sign-in is a refusal: gathered like the others, so a flood of bad callbacks cannot fill the table.
  const audit = (actor: string, status: number, detail: string, role: string) => {
    const entry = { actor, role, method: "GET", route: "/auth/callback", action: "auth.signin", remote: peer, status, detail };
    return status >= 400 ? noteRefusal({ ...entry, reason: detail }) : recordAudit(entry);
  };
  const [state, verifier] = (cookieValue(request.headers, FLOW_COOKIE) ?? "").split(".");
  const current = new URL(env.FAULTLINE_OIDC_REDIRECT_URL);
  current.search = new URL(request.url).search;
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    if (!state || !verifier) throw new Error("no sign-in was started in this browser (or it took over 10 minutes)");
    tokens = await oidc.authorizationCodeGrant(await configuration(env), current, { pkceCodeVerifier: verifier, expectedState: state });
  } catch (error) {
    const why = cleanText((error as Error).message, 300);
    audit("(unknown)", 401, `sign-in failed: ${why}`, ANONYMOUS);
    return redirect(`/auth/signin?error=${encodeURIComponent(why)}`, [clearFlow]);
  }
  const config = await configuration(env);
  let claims: Record<string, unknown> = tokens.claims() ?? {};
  // Many providers put email and groups in the userinfo answer only, not in the ID token.
  if (!(env.FAULTLINE_OIDC_GROUPS_CLAIM in claims) || !claims.email)
    claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
  const user = cleanText(String(claims.email ?? claims.preferred_username ?? claims.sub), 256);
  const groups = groupsOf(claims[env.FAULTLINE_OIDC_GROUPS_CLAIM]);
  const identity = principalOf(user, groups, "oidc", env, peer);
  if (!identity.ok && RESERVED(identity.error)) {
    audit(user, 403, identity.error, NO_ROLE);
    return redirect(`/auth/signin?error=${encodeURIComponent(identity.error)}`, [clearFlow]);
  }
  const seconds = lifetime(tokens.expires_in);
  const id = await createSession({
    user,
    groups,
    expiresAt: new Date(Date.now() + seconds * 1000),
    refreshToken: tokens.refresh_token ?? null,
    idToken: tokens.id_token ?? null,
  });
  await audit(user, 302, `via oidc; groups: ${groups.join(", ") || "none"}`, identity.ok ? identity.principal.role : NO_ROLE);
  // A person without a role is signed in all the same: the pages then say why they see nothing (403).
  return redirect("/", [clearFlow, cookie(SESSION_COOKIE, id, "/", MAX_SESSION_SECONDS, env)]);
}

const RESERVED = (error: string) => error.includes("Faultline itself acts under");

const refreshing = processSlot<Map<string, Promise<Session | undefined>>>("oidc.refreshing");

/** An expired session with a refresh token gets new tokens; undefined when it cannot (then: sign in again). */
export function refreshSession(id: string): Promise<Session | undefined> {
  // A page's layouts and the page itself ask at once: in this process they share one refresh, rather than queue
  // on the session's row one after another (refreshAcrossReplicas serializes the replicas).
  const inflight = refreshing.getOrCreate(() => new Map());
  let pending = inflight.get(id);
  if (!pending) {
    pending = refreshAcrossReplicas(id).finally(() => inflight.delete(id));
    inflight.set(id, pending);
  }
  return pending;
}

/**
 * One refresh of a session among all replicas: under the session's row lock (sessions.ts renewExpired), so a
 * rotating provider sees each refresh token once; a replica that waited uses the tokens the first one stored.
 * `db`: the replica's own database client (tests run two).
 */
export async function refreshAcrossReplicas(id: string, db?: PrismaClient): Promise<Session | undefined> {
  const env = oidcEnv();
  return renewExpired(
    id,
    async (session) => {
      try {
        const tokens = await oidc.refreshTokenGrant(await configuration(env), session.refreshToken!);
        const claims = tokens.claims();
        return {
          expiresAt: new Date(Date.now() + lifetime(tokens.expires_in) * 1000),
          groups: claims && env.FAULTLINE_OIDC_GROUPS_CLAIM in claims ? groupsOf(claims[env.FAULTLINE_OIDC_GROUPS_CLAIM]) : session.groups,
          refreshToken: tokens.refresh_token ?? session.refreshToken,
          idToken: tokens.id_token ?? session.idToken,
        };
      } catch (error) {
        console.warn(`[faultline] a session of ${session.user} could not be refreshed: ${cleanText((error as Error).message, 300)}`);
        return "ended";
      }
    },
    db,
  );
}

/** POST /api/v1/auth/signout: the session ends here and now; the cookie is cleared. */
export async function signOut(request: Request): Promise<Response> {
  const env = oidcEnv();
  const id = cookieValue(request.headers, SESSION_COOKIE);
  if (id) {
    const session = await sessionRow(id);
    await endSession(id);
    if (session)
      await recordAudit({
        actor: session.user,
        method: "POST",
        route: "/api/v1/auth/signout",
        action: "auth.signout",
        remote: request.headers.get(PEER_HEADER) ?? undefined,
        status: 303,
      });
  }
  return redirect("/auth/signin?signed-out=1", [cookie(SESSION_COOKIE, "", "/", 0, env)], 303);
}
