import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { processSlot } from "@/lib/process-slot";

// One registry per process, shared by the HTTP server wrapper and the /metrics route even when
// the bundler loads this module twice: it lives on globalThis under a registered symbol.

interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
  auditRefusals: Counter<"stage">;
  auditWriteFailures: Counter;
}

const metrics = processSlot<Metrics>("metrics");

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The Node.js version tells an attacker which flaws to try and an operator nothing about Faultline (docs/auth.md).
  registry.removeSingleMetric("nodejs_version_info");
  const httpRequests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests served, by method, route pattern and status code.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to serve an HTTP request, by method, route pattern and status code.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Noted minus recorded: refusals answered whose audit row is not written yet (or was lost with the process).
  const auditRefusals = new Counter({
    name: "faultline_audit_refusals_total",
    help: "Refused requests by stage: noted (answered and queued for the audit log) and recorded (counted in a row of audit_log).",
    labelNames: ["stage"] as const,
    registers: [registry],
  });
  const auditWriteFailures = new Counter({
    name: "faultline_audit_write_failures_total",
    help: "Writes of gathered refusals to audit_log that failed (kept and tried again at the next window).",
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration, auditRefusals, auditWriteFailures };
}

export function getMetrics(): Metrics {
  return metrics.getOrCreate(createMetrics);
}

export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const { httpRequests, httpDuration } = getMetrics();
  const labels = { method, route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

/** Refusals noted for the audit log, recorded in it, and writes that failed (lib/auth/refusals.ts, audit.ts). */
export function countAuditRefusals(stage: "noted" | "recorded", n = 1): void {
  getMetrics().auditRefusals.inc({ stage }, n);
}

export function countAuditWriteFailure(): void {
  getMetrics().auditWriteFailures.inc();
}

/** The exposition /metrics serves: its text and content type. */
export async function renderMetrics(): Promise<{ text: string; contentType: string }> {
  const { registry } = getMetrics();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
