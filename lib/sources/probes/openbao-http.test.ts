import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES, OpenBaoCaError, openBaoFetch } from "./openbao-http";

// An OpenBao behind a certificate from a private CA (a self-signed one, made with openssl), on loopback.

let dir: string;
let server: Server;
let url: URL;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "faultline-bao-tls-"));
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=openbao.test",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    // A hostile endpoint: an answer without end in sight.
    if (req.url === "/endless") return void res.writeHead(200).end(Buffer.alloc(MAX_ANSWER_BYTES + 1, "a"));
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ initialized: true, sealed: false, standby: false }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sys/health`);
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("OpenBao over TLS with the clusters file's CA", () => {
  it("trusts the configured CA, and refuses the same server without it", async () => {
    const response = await openBaoFetch(path.join(dir, "cert.pem"))(url, { signal: AbortSignal.timeout(3000) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sealed: false });
    const refused = await openBaoFetch(undefined)(url, { signal: AbortSignal.timeout(3000) }).catch(
      (error: Error) => (error.cause as Error | undefined)?.message ?? error.message,
    );
    expect(refused).toMatch(/self[- ]signed certificate/i);
  });

  it("refuses an answer larger than its bound, and still reads the next one", async () => {
    const get = openBaoFetch(path.join(dir, "cert.pem"));
    await expect(get(new URL("/endless", url), { signal: AbortSignal.timeout(3000) })).rejects.toThrow(
      `${url.origin}/endless: the answer is larger than ${MAX_ANSWER_BYTES} bytes`,
    );
    expect((await get(url, { signal: AbortSignal.timeout(3000) })).status).toBe(200);
  });

  it("says which CA file cannot be read, or holds no certificate", () => {
    expect(() => openBaoFetch(path.join(dir, "missing.pem"))).toThrow(
      new OpenBaoCaError(`cannot read the OpenBao CA file ${path.join(dir, "missing.pem")}: ENOENT`),
    );
    writeFileSync(path.join(dir, "junk.pem"), "not a certificate");
    expect(() => openBaoFetch(path.join(dir, "junk.pem"))).toThrow(/holds no PEM certificate/);
  });
});
