import "server-only";
import http from "node:http";
import https from "node:https";
import { httpError, requestOptions, type KubeAccess } from "./client";

// One WATCH request as a stream of events. Issued here rather than with client-node's Watch, whose
// promise hides the answer's headers and Status body: a 429 must be read with its Retry-After, and the
// caller must learn the moment the server accepted the WATCH (200 + headers), not the first event.

export interface WatchStream {
  /** Closes the stream; onEnd is not called after this. */
  abort(): void;
}

/** Longest single event line kept (an object of several MB is possible; beyond this the stream is cut). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Opens a WATCH. Resolves once the server accepted it (200 and its headers); rejects with a
 * KubeHttpError (carrying Retry-After) on any other status, or with the connection's error, or when no
 * answer arrives within headerTimeoutMs (a blackholed connection). After that, silence is the caller's
 * watchdog's business.
 */
export async function openWatch(
  access: KubeAccess,
  path: string,
  params: Record<string, string | number | boolean>,
  onEvent: (type: string, object: unknown) => void,
  onEnd: (error?: Error) => void,
  headerTimeoutMs = 30_000,
): Promise<WatchStream> {
  const url = new URL(path, access.server);
  url.searchParams.set("watch", "true");
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  const options = await requestOptions(access, { method: "GET", headers: { Accept: "application/json" }, timeout: headerTimeoutMs });
  const lib = url.protocol === "https:" ? https : http;
  const where = `${path}${params.fieldSelector ? ` (${params.fieldSelector})` : ""}`;
  return new Promise((resolve, reject) => {
    let accepted = false;
    let finished = false;
    let response: http.IncomingMessage | undefined;
    const end = (error?: Error) => {
      if (finished) return;
      finished = true;
      if (accepted) onEnd(error);
      else reject(error ?? new Error(`WATCH ${where}: closed before an answer`));
    };
    const request = lib.request(url, options, (answer) => {
      response = answer;
      const status = answer.statusCode ?? 0;
      if (status !== 200) {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 64 * 1024) chunks.push(chunk);
        });
        answer.on("end", () => end(httpError(`WATCH ${where}`, status, Buffer.concat(chunks).toString("utf8"), answer.headers)));
        answer.on("error", (error) => end(error));
        return;
      }
      accepted = true;
      request.setTimeout(0); // accepted: from here on the caller's stall watchdog owns silence
      let pending = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => {
        pending += chunk;
        let newline = pending.indexOf("\n");
        while (newline >= 0 && !finished) {
          const line = pending.slice(0, newline).trim();
          pending = pending.slice(newline + 1);
          if (line) deliver(line);
          newline = pending.indexOf("\n");
        }
        if (pending.length > MAX_LINE_BYTES) request.destroy(new Error(`WATCH ${where}: an event longer than ${MAX_LINE_BYTES} bytes`));
      });
      answer.on("end", () => end());
      answer.on("aborted", () => end(new Error(`WATCH ${where}: the connection was cut`)));
      answer.on("error", (error) => end(error));
      resolve({
        abort: () => {
          finished = true;
          request.destroy();
        },
      });
    });
    const deliver = (line: string) => {
      let event: { type?: unknown; object?: unknown };
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        return; // a torn or foreign line says nothing; the watchdog and resourceVersion keep the watch honest
      }
      if (typeof event?.type === "string") onEvent(event.type, event.object);
    };
    request.on("timeout", () => request.destroy(new Error(`WATCH ${where}: no answer within ${headerTimeoutMs} ms`)));
    request.on("error", (error) => end(error));
    request.on("close", () =>
      end(accepted && response?.complete ? undefined : new Error(`WATCH ${where}: the connection closed ${accepted ? "mid-stream" : "before an answer"}`)),
    );
    request.end();
  });
}
