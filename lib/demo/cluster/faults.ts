import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { statusBody } from "./status";

// API-level faults of the simulated kube-apiserver, so a client's handling of them is tested end to
// end: throttling as API Priority and Fairness answers it, a blackholed connection, slow answers,
// watches that cannot resume, and reset watch streams. One fault is in force at a time.

export type ApiFault =
  | { kind: "throttle"; retryAfterSeconds: number; status?: 429 | 503 }
  | { kind: "blackhole" }
  | { kind: "slow"; delayMs: number }
  | { kind: "expire-on-resume" };

export class ApiFaultError extends RangeError {}

function check(fault: ApiFault): ApiFault {
  const f = fault as { kind?: unknown; retryAfterSeconds?: unknown; status?: unknown; delayMs?: unknown };
  switch (f.kind) {
    case "throttle":
      if (!Number.isInteger(f.retryAfterSeconds) || (f.retryAfterSeconds as number) < 0 || (f.retryAfterSeconds as number) > 3600) {
        throw new ApiFaultError(`throttle: retryAfterSeconds must be a whole number of seconds from 0 to 3600, got ${String(f.retryAfterSeconds)}`);
      }
      if (f.status !== undefined && f.status !== 429 && f.status !== 503)
        throw new ApiFaultError(`throttle: status must be 429 or 503, got ${String(f.status)}`);
      return { kind: "throttle", retryAfterSeconds: f.retryAfterSeconds as number, ...(f.status ? { status: f.status as 429 | 503 } : {}) };
    case "slow":
      if (typeof f.delayMs !== "number" || !Number.isFinite(f.delayMs) || f.delayMs < 0 || f.delayMs > 600_000) {
        throw new ApiFaultError(`slow: delayMs must be a number of milliseconds from 0 to 600000, got ${String(f.delayMs)}`);
      }
      return { kind: "slow", delayMs: f.delayMs };
    case "blackhole":
    case "expire-on-resume":
      return { kind: f.kind };
    default:
      throw new ApiFaultError(`no API fault "${String(f.kind)}"; faults are throttle, blackhole, slow and expire-on-resume`);
  }
}

export class ApiFaults {
  private fault?: ApiFault;
  /** Requests a blackhole swallowed: never answered, dropped with their connection when the server stops. */
  private readonly held = new Set<Socket>();

  constructor(private readonly openWatches: () => Iterable<ServerResponse>) {}

  /** The fault in force, or undefined. */
  get current(): ApiFault | undefined {
    return this.fault ? { ...this.fault } : undefined;
  }

  set(fault: ApiFault): void {
    this.fault = check(fault);
  }

  clear(): void {
    this.fault = undefined;
  }

  /** Destroys every open watch's connection at once, with a TCP reset where the platform allows. */
  resetWatches(): number {
    let count = 0;
    for (const res of [...this.openWatches()]) {
      const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
      if (!socket) continue;
      count++;
      try {
        socket.resetAndDestroy?.();
      } catch {
        // A TLS socket may refuse a reset before its handshake is done; destroying it still cuts the stream.
      }
      if (!socket.destroyed) socket.destroy();
    }
    return count;
  }

  /** Open watches send nothing while the connection is blackholed. */
  get silent(): boolean {
    return this.fault?.kind === "blackhole";
  }

  /**
   * Applies the fault to one Kubernetes API request before it is served. Returns true when the fault
   * answered (or swallowed) the request and the caller must do nothing more.
   */
  async intercept(res: ServerResponse, socket: Socket): Promise<boolean> {
    const fault = this.fault;
    if (!fault) return false;
    if (fault.kind === "blackhole") {
      this.held.add(socket);
      socket.once("close", () => this.held.delete(socket));
      return true;
    }
    if (fault.kind === "slow") {
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      return res.destroyed;
    }
    if (fault.kind === "throttle") {
      sendThrottled(res, fault.retryAfterSeconds, fault.status ?? 429);
      return true;
    }
    return false;
  }

  /** Whether a WATCH that resumes from `resourceVersion` must be told it expired. */
  expiresResume(resourceVersion: string): boolean {
    return this.fault?.kind === "expire-on-resume" && resourceVersion !== "" && resourceVersion !== "0";
  }

  dropHeld(): void {
    for (const socket of this.held) socket.destroy();
    this.held.clear();
  }
}

// The flow schema and priority level the request was classified into, as APF names them in headers.
const PF_FLOW_SCHEMA_UID = "3f2c8a8e-5f0b-4a39-9d0e-0c1b5c6c9a11";
const PF_PRIORITY_LEVEL_UID = "8b1d4f7e-2a6c-4c43-b0a4-6f8e2d9c5b22";

function sendThrottled(res: ServerResponse, retryAfterSeconds: number, code: 429 | 503): void {
  const message = "Too many requests, please try again later.";
  const body = JSON.stringify(statusBody(code, code === 429 ? "TooManyRequests" : "ServiceUnavailable", message, { retryAfterSeconds }));
  res.writeHead(code, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-cache, private",
    "Retry-After": String(retryAfterSeconds),
    "X-Kubernetes-Pf-Flowschema-Uid": PF_FLOW_SCHEMA_UID,
    "X-Kubernetes-Pf-Prioritylevel-Uid": PF_PRIORITY_LEVEL_UID,
  });
  res.end(body);
}
