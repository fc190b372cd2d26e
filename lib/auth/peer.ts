import type { IncomingMessage } from "node:http";

// The address a request came from, as the socket saw it, carried to the route handlers in a header of our own.
// Next.js keeps a client's X-Forwarded-For as sent, so only this header is trusted: stampPeer() runs on every
// request before Next.js (scripts/start.ts) and overwrites whatever a client put there.

export const PEER_HEADER = "x-faultline-peer";

/** Overwrites the peer header with the socket's remote address (an interface lib/http/edge.ts may call instead). */
export function stampPeer(req: IncomingMessage): void {
  delete req.headers[PEER_HEADER];
  const address = req.socket.remoteAddress;
  if (address) req.headers[PEER_HEADER] = address;
  // A header repeated in rawHeaders would be re-read by some consumers: keep only ours.
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === PEER_HEADER) raw.splice(i, 2);
  if (address) raw.push(PEER_HEADER, address);
}
