import "server-only";
import { readFileSync } from "node:fs";
import { createSecureContext, rootCertificates } from "node:tls";
import { Agent, request, type Dispatcher } from "undici";

// HTTP to a cluster's OpenBao, trusting the CA the clusters file names (openbao.caFile) on top of the
// system's. One connection pool per CA file; a CA file that cannot be read is a clear error of its own,
// not an "unreachable OpenBao". Requests go through undici's request(), not fetch(): a probe every round of every
// cluster through fetch's web streams and signals made most of what 100 clusters' monitors promoted to the old heap.

/** What a probe reads of an answer: the global fetch's Response and undici's both are one. */
export interface ProbeResponse {
  status: number;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export type OpenBaoFetch = (url: URL, init: { headers?: Record<string, string>; signal?: AbortSignal }) => Promise<ProbeResponse>;

/** The most of an answer kept: a health or key document is a few KB; past this the answer is refused. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const agents = new Map<string, Agent>();

export class OpenBaoCaError extends Error {}

export function openBaoFetch(caFile: string | undefined): OpenBaoFetch {
  if (!caFile) return (url, init) => get(url, init, undefined);
  let agent = agents.get(caFile);
  if (!agent) {
    let ca: string;
    try {
      ca = readFileSync(caFile, "utf8");
    } catch (error) {
      throw new OpenBaoCaError(`cannot read the OpenBao CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (!ca.includes("-----BEGIN CERTIFICATE-----")) throw new OpenBaoCaError(`the OpenBao CA file ${caFile} holds no PEM certificate`);
    // Node's `ca` replaces the default roots; keep them, so a public certificate is still trusted too. The context is
    // made once: given as `ca`, every new connection parsed the 140-odd roots again (a third of the CPU at 100 clusters).
    agent = new Agent({ connect: { secureContext: createSecureContext({ ca: [...rootCertificates, ca] }) } });
    agents.set(caFile, agent);
  }
  const dispatcher = agent;
  return (url, init) => get(url, init, dispatcher);
}

async function get(url: URL, init: { headers?: Record<string, string>; signal?: AbortSignal }, dispatcher: Dispatcher | undefined): Promise<ProbeResponse> {
  const answer = await request(url, { method: "GET", headers: init.headers, signal: init.signal, ...(dispatcher ? { dispatcher } : {}) });
  const text = await readBounded(answer.body, url);
  return { status: answer.statusCode, text: async () => text, json: async () => JSON.parse(text) as unknown };
}

async function readBounded(body: Dispatcher.ResponseData["body"], url: URL): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw new Error(`${url.origin}${url.pathname}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
