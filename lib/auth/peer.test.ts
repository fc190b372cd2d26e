import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listIncidents } from "@/app/api/v1/incidents/route";
import { POST as addNote } from "@/app/api/v1/incidents/[id]/notes/route";
import { setDatabaseUrl } from "@/lib/env";
import { migratedDatabase } from "@/test/incident-db";
import { flushRefusals } from "./audit";
import { stampPeer } from "./peer";

// Proxy mode over real HTTP: a Node server that stamps the socket's address as scripts/start.ts does, in front of
// the real route handlers. Requests come from 127.0.0.1 (the configured proxy) and from 127.0.0.2 (anyone else).

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let server: Server;
let port: number;

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  return new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
}

beforeAll(async () => {
  db = await migratedDatabase();
  Object.assign(process.env, {
    FAULTLINE_AUTH: "proxy",
    FAULTLINE_PROXY_SOURCES: "127.0.0.1",
    FAULTLINE_ROLE_GROUPS: JSON.stringify({ admin: ["sre-leads"], responder: ["sre"], viewer: ["staff"] }),
  });
  setDatabaseUrl(db.url);
  server = createServer(async (req, res) => {
    const request = await toRequest(req);
    const response = req.url!.startsWith("/api/v1/incidents/5/notes")
      ? await addNote(request, { params: Promise.resolve({ id: "5" }) })
      : await listIncidents(request);
    res.writeHead(response.status, { "content-type": "application/json" });
    res.end(await response.text());
  });
  server.prependListener("request", stampPeer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const name of ["FAULTLINE_AUTH", "FAULTLINE_PROXY_SOURCES", "FAULTLINE_ROLE_GROUPS"]) delete process.env[name];
  await db.close();
});

function send(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: { error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, localAddress: from, method, path, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) as { error?: string } }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const admin = { "X-Forwarded-Email": "adam@example.org", "X-Forwarded-Groups": "sre-leads" };

describe("proxy mode over HTTP", () => {
  it("believes the proxy's headers from the proxy's address", async () => {
    expect((await send("127.0.0.1", "GET", "/api/v1/incidents", { "X-Forwarded-Email": "vera@example.org", "X-Forwarded-Groups": "staff" })).status).toBe(200);
    const viewerNote = await send(
      "127.0.0.1",
      "POST",
      "/api/v1/incidents/5/notes",
      { "X-Forwarded-User": "vera", "X-Forwarded-Groups": "staff" },
      '{"text":"x"}',
    );
    expect(viewerNote).toEqual({ status: 403, body: { error: "vera is a viewer; this needs the responder role" } });
    // The admin passes the role check; the incident does not exist.
    expect((await send("127.0.0.1", "POST", "/api/v1/incidents/5/notes", admin, '{"text":"x"}')).status).toBe(404);
  });

  it("answers 401 when the proxy sends no user", async () => {
    expect(await send("127.0.0.1", "GET", "/api/v1/incidents")).toEqual({
      status: 401,
      body: { error: "not signed in: the authenticating proxy sent no user" },
    });
  });

  it("trusts nobody who connects from elsewhere, whatever headers they forge", async () => {
    const refused = { status: 403, body: { error: "requests are accepted only through the authenticating proxy" } };
    expect(await send("127.0.0.2", "GET", "/api/v1/incidents", admin)).toEqual(refused);
    expect(await send("127.0.0.2", "GET", "/api/v1/incidents", { ...admin, "X-Faultline-Peer": "127.0.0.1", "X-Forwarded-For": "127.0.0.1" })).toEqual(refused);
    expect(await send("127.0.0.2", "POST", "/api/v1/incidents/5/notes", { ...admin, "x-faultline-peer": "127.0.0.1" }, '{"text":"x"}')).toEqual(refused);
    // Every refusal is recorded, reads too; the two alike as one row that counts them.
    await flushRefusals();
    const audited = await db.prisma.auditEntry.findMany({ where: { remote: "127.0.0.2" }, orderBy: { id: "asc" } });
    expect(audited.map((r) => [r.status, r.action, r.actor, r.role, r.count])).toEqual([
      [403, "GET /api/v1/incidents", "(unknown)", "anonymous", 2],
      [403, "incident.note", "(unknown)", "anonymous", 1],
    ]);
  });
});
