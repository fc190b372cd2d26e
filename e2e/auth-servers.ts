import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import Provider from "oidc-provider";
import { freePort } from "../lib/free-port";
export { freePort };

// The servers e2e/auth.spec.ts signs in against: Faultline itself started by `npm start` in a mode of its own (the
// shared webServer runs FAULTLINE_AUTH=none), and a real OpenID provider (oidc-provider) in this process.

export const ROLE_GROUPS = JSON.stringify({ admin: ["sre-leads"], responder: ["sre"], viewer: ["staff"] });

export interface Started {
  url: string;
  stop: () => Promise<void>;
}

/** `npm start` with these variables (the build is current: the shared webServer built it). */
export async function startFaultline(name: string, env: Record<string, string>, port?: number): Promise<Started> {
  port ??= await freePort();
  // A fresh database each run: the audit log is append-only, and earlier runs' entries would match too.
  const dataDir = `.data/e2e-auth-${name}`;
  rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn("npm", ["start"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      FAULTLINE_DATA_DIR: dataDir,
      FAULTLINE_DEMO_INTERVAL_SECONDS: "2",
      FAULTLINE_POLL_SECONDS: "1",
      FAULTLINE_INCIDENT_RULES: JSON.stringify({
        openAfterObservations: 2,
        openAfterSeconds: 2,
        resolveAfterSeconds: 5,
        groupWindowSeconds: 10,
        reopenWindowSeconds: 3,
      }),
      ...env,
    },
  });
  let log = "";
  // The server's own output, for reading after a failure.
  mkdirSync("test-results", { recursive: true });
  const file = createWriteStream(`test-results/auth-${name}-server.log`);
  for (const stream of [child.stdout!, child.stderr!])
    stream.on("data", (d: Buffer) => {
      log = (log + d.toString()).slice(-20_000);
      file.write(d);
    });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start (${name}) exited ${child.exitCode}:\n${log.slice(-3000)}`);
    const ready = await fetch(`${url}/api/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`npm start (${name}) not ready:\n${log.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      process.kill(-child.pid!, "SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** An HTTP request from a given local address (127.0.0.2: somewhere that is not the proxy). */
export function requestFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** People at the provider: login name -> groups. */
const PEOPLE: Record<string, string[]> = { ops: ["sre-leads"], viewer: ["staff"] };

/** A real OpenID provider on loopback, with short token lifetimes so expiry happens within a test. */
export async function startProvider(redirectUri: string, ttl: { accessToken: number; refreshToken: number }): Promise<Started> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "faultline",
        client_secret: "e2e-client-secret-not-real",
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email"], groups: ["groups"] },
    scopes: ["openid", "offline_access", "email", "groups", "profile"],
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@example.org`, groups: PEOPLE[id] ?? [] }),
    }),
    // Refresh tokens without the consent prompt offline_access would need: expiry and refresh are what is tested.
    issueRefreshToken: () => true,
    ttl: { AccessToken: ttl.accessToken, IdToken: ttl.accessToken, RefreshToken: ttl.refreshToken, Session: 3600, Grant: 3600, Interaction: 600 },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["e2e-cookie-key-not-secret"] },
  });
  const server = provider.listen(port, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: issuer, stop: () => new Promise((r) => server.close(() => r())) };
}
