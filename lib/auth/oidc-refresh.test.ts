import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import * as oidc from "openid-client";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/db/generated/client";
import { setDatabaseUrl } from "@/lib/env";
import { freePort } from "@/lib/free-port";
import { createEdge } from "@/lib/http/edge";
import { allowedHosts } from "@/lib/http/forgery";
import { machineRoutes } from "@/lib/http/machine-token";
import { createRouteLabeler } from "@/lib/http/route-label";
import { scanAppRoutes } from "@/lib/http/route-table";
import { migratedDatabase } from "@/test/incident-db";
import { flushRefusals } from "./audit";
import { identify } from "./identify";
import { finishSignIn, refreshAcrossReplicas, startSignIn } from "./oidc";
import { SESSION_COOKIE, sessionKey } from "./session-cookie";

// One refresh per session across replicas, against a real OpenID provider (oidc-provider) that rotates refresh
// tokens and, as the OAuth security BCP asks, revokes the whole grant when a used one comes back. The session is
// made by Faultline's own sign-in (startSignIn, the provider's login and consent pages, finishSignIn). One "replica"
// is a request's identify(); the other is refreshAcrossReplicas on a database client of its own, past the
// per-process map that would otherwise join the two.

const ROLE_GROUPS = JSON.stringify({ admin: ["sre-leads"], responder: ["sre"], viewer: ["staff"] });
const SECRET = "vitest-client-secret-not-real";
const PEOPLE: Record<string, string[]> = { ops: ["sre-leads"], vera: ["staff"] };

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let issuer: string;
let redirect: string;
let providerServer: Server;
/** What the provider answered to each refresh_token grant, in order. */
const refreshes: { ok: boolean; refreshToken?: string; error?: string }[] = [];
/** The second replica's own database client. */
let replica: PrismaClient;

beforeAll(async () => {
  db = await migratedDatabase();
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  redirect = `http://127.0.0.1:${await freePort()}/auth/callback`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "faultline",
        client_secret: SECRET,
        redirect_uris: [redirect],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email"], groups: ["groups"] },
    scopes: ["openid", "offline_access", "email", "groups", "profile"],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, email: `${id}@example.org`, groups: PEOPLE[id] ?? [] }) }),
    issueRefreshToken: () => true,
    // Every refresh answers a new refresh token and consumes the one presented.
    rotateRefreshToken: true,
    ttl: { AccessToken: 3600, IdToken: 3600, RefreshToken: 86_400, Session: 3600, Grant: 86_400, Interaction: 600 },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["vitest-cookie-key-not-secret"] },
  });
  type Ctx = { oidc: { params: { grant_type?: string } }; body: { refresh_token?: string } };
  provider.on("grant.success", (...args: unknown[]) => {
    const ctx = args[0] as Ctx;
    if (ctx.oidc.params.grant_type === "refresh_token") refreshes.push({ ok: true, refreshToken: ctx.body.refresh_token });
  });
  provider.on("grant.error", (...args: unknown[]) => {
    const [ctx, error] = args as [Ctx, Error];
    if (ctx.oidc.params.grant_type === "refresh_token") refreshes.push({ ok: false, error: error.message });
  });
  providerServer = provider.listen(port, "127.0.0.1");
  await new Promise((r) => providerServer.once("listening", r));
  Object.assign(process.env, {
    FAULTLINE_AUTH: "oidc",
    FAULTLINE_ROLE_GROUPS: ROLE_GROUPS,
    FAULTLINE_OIDC_ISSUER: issuer,
    FAULTLINE_OIDC_CLIENT_ID: "faultline",
    FAULTLINE_OIDC_CLIENT_SECRET: SECRET,
    FAULTLINE_OIDC_REDIRECT_URL: redirect,
  });
  setDatabaseUrl(db.url);
  replica = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url, max: 4 }) });
});
afterAll(async () => {
  await replica.$disconnect();
  await new Promise((r) => providerServer.close(r));
  for (const name of [
    "FAULTLINE_AUTH",
    "FAULTLINE_ROLE_GROUPS",
    "FAULTLINE_OIDC_ISSUER",
    "FAULTLINE_OIDC_CLIENT_ID",
    "FAULTLINE_OIDC_CLIENT_SECRET",
    "FAULTLINE_OIDC_REDIRECT_URL",
  ])
    delete process.env[name];
  await db.close();
});

/** Signs `login` in as a browser would: Faultline's start, the provider's login and consent forms, Faultline's callback. */
async function signIn(login: string): Promise<string> {
  const start = await startSignIn();
  const flow = start.headers.getSetCookie().map((c) => c.split(";")[0]);
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let url = start.headers.get("location")!;
  for (let step = 0; !url.startsWith(redirect); step++) {
    if (step > 12) throw new Error(`sign-in did not come back to ${redirect}; stopped at ${url}`);
    const res = await fetch(url, { redirect: "manual", headers: { cookie: cookie() } });
    keep(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url).href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on ${url} (${res.status})`);
    const form: Record<string, string> = html.includes('name="prompt" value="consent"') ? { prompt: "consent" } : { prompt: "login", login, password: "any" };
    const post = await fetch(new URL(action, url), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    });
    keep(post);
    url = new URL(post.headers.get("location")!, url).href;
  }
  const done = await finishSignIn(new Request(url, { headers: { cookie: flow.join("; ") } }));
  const session = done.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!session) throw new Error(`sign-in failed: ${done.headers.get("location")}`);
  return session.slice(SESSION_COOKIE.length + 1);
}

const rowOf = (id: string) => db.prisma.authSession.findUniqueOrThrow({ where: { idHash: sessionKey(id)! } });

describe("two replicas refresh one session whose access token has expired", () => {
  it("20 races: the provider is asked once per race, no session ends, and the stored refresh token is the provider's latest", async () => {
    const id = await signIn("ops");
    const first = await rowOf(id);
    expect(first.refreshToken).toBeTruthy();
    const outcomes: { ended: number; asked: number; stored: boolean; same: boolean }[] = [];
    for (let run = 0; run < 20; run++) {
      await db.prisma.authSession.update({ where: { idHash: sessionKey(id)! }, data: { expiresAt: new Date(Date.now() - 1_000) } });
      const asked = refreshes.length;
      // One replica as a request meets it (identify: the per-process map, the process's client), the other on a
      // client of its own with no map in front.
      const [a, b] = await Promise.all([identify(new Headers({ cookie: `${SESSION_COOKIE}=${id}` })), refreshAcrossReplicas(id, replica)]);
      const row = await rowOf(id);
      const latest = refreshes.at(-1);
      outcomes.push({
        ended: (a.ok ? 0 : 1) + (b ? 0 : 1) + (row.endedAt ? 1 : 0),
        asked: refreshes.length - asked,
        stored: latest?.ok === true && row.refreshToken === latest.refreshToken,
        same: b?.refreshToken === row.refreshToken && a.ok && a.principal.user === "ops@example.org",
      });
    }
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => ({ ended: 0, asked: 1, stored: true, same: true })));
    expect(refreshes.every((r) => r.ok)).toBe(true);
    // Rotated every time: 20 refresh tokens, none the same, none the first.
    const issued = new Set(refreshes.map((r) => r.refreshToken));
    expect(issued.size).toBe(20);
    expect(issued.has(first.refreshToken!)).toBe(false);
  }, 120_000);

  it("the provider does end a grant whose refresh token is presented twice: what the row lock prevents", async () => {
    const id = await signIn("vera");
    const token = (await rowOf(id)).refreshToken!;
    const config = await oidc.discovery(new URL(issuer), "faultline", SECRET, undefined, { execute: [oidc.allowInsecureRequests] });
    const results = await Promise.allSettled([oidc.refreshTokenGrant(config, token), oidc.refreshTokenGrant(config, token)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.find((r) => r.status === "rejected")!.reason).toMatchObject({ error: "invalid_grant" });
    // The winner's new token went with the grant: the session would have ended however the race turned out.
    const winner = results.find((r) => r.status === "fulfilled")!.value;
    await expect(oidc.refreshTokenGrant(config, winner.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("a session that cannot be refreshed ends once, for every replica", async () => {
    const id = await signIn("vera");
    await db.prisma.authSession.update({
      where: { idHash: sessionKey(id)! },
      data: { expiresAt: new Date(Date.now() - 1_000), refreshToken: "not-a-refresh-token" },
    });
    const asked = refreshes.length;
    const results = await Promise.all([refreshAcrossReplicas(id), refreshAcrossReplicas(id, replica)]);
    expect(results).toEqual([undefined, undefined]);
    expect(refreshes.length - asked).toBe(1);
    expect((await rowOf(id)).endedAt).not.toBeNull();
  });
});

describe("a refusal at the edge that carried a session", () => {
  it("is recorded under the session's person and role, looked up when the row is written", async () => {
    const id = await signIn("ops");
    const root = path.resolve(import.meta.dirname, "../..");
    const specs = new Map(scanAppRoutes(path.join(root, "app")).map((s) => [s.pattern, s]));
    const label = createRouteLabeler({
      staticRoutes: [...specs.keys()].filter((p) => !p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/[-/]/g, "\\$&")}(?:/)?$` })),
      dynamicRoutes: [...specs.keys()].filter((p) => p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/\[[^\]]+\]/g, "([^/]+?)")}(?:/)?$` })),
    });
    const edge: { onRequest?: ReturnType<typeof createEdge>["onRequest"] } = {};
    const server = createServer((req, res) => void edge.onRequest!(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    edge.onRequest = createEdge(
      { label, specs, security: { hosts: allowedHosts("127.0.0.1", port), machines: machineRoutes({}), signInOn: () => true } },
      async (_req, res) => {
        res.end("not reached");
      },
    ).onRequest;
    const post = (cookie: string) =>
      new Promise<number>((resolve, reject) => {
        const headers = { host: `127.0.0.1:${port}`, origin: "http://evil.example", "content-type": "application/json", "content-length": "2", cookie };
        const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/v1/demo/scenarios/openbao-sealed", headers, agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        req.on("error", reject);
        req.end("{}");
      });
    try {
      const before = (await db.prisma.auditEntry.findFirst({ orderBy: { id: "desc" } }))?.id ?? 0n;
      expect(await post(`${SESSION_COOKIE}=${id}`)).toBe(403);
      expect(await post(`${SESSION_COOKIE}=${id}`)).toBe(403);
      expect(await post(`${SESSION_COOKIE}=${"x".repeat(43)}`)).toBe(403);
      await flushRefusals();
      const rows = await db.prisma.auditEntry.findMany({ where: { id: { gt: before }, action: "edge.cross-site" }, orderBy: { id: "asc" } });
      expect(rows.map((r) => [r.actor, r.role, r.count])).toEqual([
        ["ops@example.org", "admin", 2],
        ["(unknown)", "anonymous", 1],
      ]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("a failed sign-in is a refusal too, gathered: bad callbacks cost a count, not a row each", async () => {
    const before = (await db.prisma.auditEntry.findFirst({ orderBy: { id: "desc" } }))?.id ?? 0n;
    for (let i = 0; i < 3; i++) {
      const answer = await finishSignIn(new Request(`${redirect}?code=forged&state=forged`, { headers: { "x-faultline-peer": "192.0.2.44" } }));
      expect(answer.headers.get("location")).toBe(
        `/auth/signin?error=${encodeURIComponent("no sign-in was started in this browser (or it took over 10 minutes)")}`,
      );
    }
    await flushRefusals();
    const rows = await db.prisma.auditEntry.findMany({ where: { id: { gt: before } } });
    expect(rows.map((r) => [r.action, r.actor, r.role, r.status, r.remote, r.count])).toEqual([
      ["auth.signin", "(unknown)", "anonymous", 401, "192.0.2.44", 3],
    ]);
  });
});
