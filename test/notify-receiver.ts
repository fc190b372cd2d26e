import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on loopback for the notification tests and the crash bench: records every request it answers
// (idempotency key, body, headers) and dedupes by key, as a real receiver must. `answer` decides the status.

export interface Received {
  key: string;
  body: Record<string, unknown>;
  headers: IncomingMessage["headers"];
  status: number;
  at: number;
}

export interface TestReceiver {
  url: string;
  port: number;
  /** Every request, in order, whatever was answered. */
  requests: Received[];
  /** Keys answered with a 2xx, counted: more than 1 is a duplicate delivery that dedupe absorbed. */
  delivered: Map<string, number>;
  /** Decides each answer: a status (and headers); default 200. */
  answer: (req: { key: string; body: Record<string, unknown>; n: number }) => {
    status: number;
    headers?: Record<string, string>;
    delayMs?: number;
    body?: string;
  };
  close: () => Promise<void>;
}

export async function startTestReceiver(port = 0): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: "",
    port: 0,
    requests: [],
    delivered: new Map(),
    answer: () => ({ status: 200 }),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        body = { unparsable: true };
      }
      const decided = receiver.answer({ key, body, n: receiver.requests.length });
      const reply = () => {
        receiver.requests.push({ key, body, headers: req.headers, status: decided.status, at: Date.now() });
        if (decided.status >= 200 && decided.status < 300) receiver.delivered.set(key, (receiver.delivered.get(key) ?? 0) + 1);
        res.writeHead(decided.status, { "content-type": "text/plain", ...decided.headers });
        res.end(decided.body ?? (decided.status < 300 ? "ok" : `refused ${decided.status}`));
      };
      if (decided.delayMs) setTimeout(reply, decided.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
