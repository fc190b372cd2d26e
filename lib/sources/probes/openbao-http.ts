import "server-only";
import { readFileSync } from "node:fs";
import { createSecureContext, rootCertificates } from "node:tls";
import { Agent, fetch as undiciFetch } from "undici";

// HTTP to a cluster's OpenBao, trusting the CA the clusters file names (openbao.caFile) on top of the
// system's. One connection pool per CA file; a CA file that cannot be read is a clear error of its own,
// not an "unreachable OpenBao".

/** What a probe reads of an answer: the global fetch's Response and undici's both are one. */
export interface ProbeResponse {
  status: number;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export type OpenBaoFetch = (url: URL, init: { headers?: Record<string, string>; signal?: AbortSignal }) => Promise<ProbeResponse>;

const agents = new Map<string, Agent>();

export class OpenBaoCaError extends Error {}

export function openBaoFetch(caFile: string | undefined): OpenBaoFetch {
  if (!caFile) return (url, init) => fetch(url, init);
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
  return (url, init) => undiciFetch(url, { ...init, dispatcher });
}
