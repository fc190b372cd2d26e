import "server-only";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { rootCertificates } from "node:tls";
import { reasonOf, splitLines, type LogReading, type LogSettings } from "./log-reading";

// A systemd unit's journal on one node, through systemd-journal-gatewayd (systemd src/journal-remote/
// journal-gatewayd.c): GET /entries with journal matches as URL arguments, Accept: application/json (one JSON entry
// a line, as journalctl -o json) and a Range header for the tail. Two reads, as journalctl -u does: the unit's own
// lines (_SYSTEMD_UNIT=<unit>) and what systemd says of it (_PID=1, UNIT=<unit>: started, stopped, restart counter),
// merged by time. gatewayd seeks to the tail and steps back num_skip + 1 entries before it sends num_entries, so
// "entries=:-N:N+1" ends at the newest entry; the last N are kept.

const TIMEOUT_MS = 10_000;
const NODE_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

interface Entry {
  at: number;
  line: string;
}

/** The gatewayd address of one node, or undefined when the clusters file gives none for it. */
export function journalUrl(journal: NonNullable<LogSettings["journal"]>, node: string): URL | undefined {
  // The node's name comes from the cluster: it must be a plain name before it becomes part of an address.
  if (!NODE_NAME.test(node)) return undefined;
  const raw = journal.nodes?.[node] ?? journal.url?.replaceAll("{node}", node);
  return raw ? new URL(raw) : undefined;
}

export async function readJournal(journal: NonNullable<LogSettings["journal"]>, node: string, settings: LogSettings, now = new Date()): Promise<LogReading> {
  const base = { kind: "journal" as const, key: `journal:${node}/${journal.unit}`, source: `journal of ${journal.unit} on ${node}`, node };
  const url = journalUrl(journal, node);
  if (!url)
    return {
      ...base,
      lines: [],
      bytes: 0,
      cut: false,
      refused: `no gatewayd address for node "${node.slice(0, 100)}" in the clusters file (journal.url or journal.nodes)`,
    };
  try {
    const ca = journal.caFile ? [...rootCertificates, readFileSync(journal.caFile, "utf8")] : undefined;
    const reads = await Promise.all([
      entries(url, { _SYSTEMD_UNIT: journal.unit }, settings, ca),
      entries(url, { _PID: "1", UNIT: journal.unit }, settings, ca),
    ]);
    const since = now.getTime() - settings.sinceSeconds * 1000;
    const merged = reads
      .flatMap((r) => r.entries)
      .filter((e) => e.at >= since)
      .sort((a, b) => a.at - b.at)
      .slice(-settings.tailLines);
    return { ...base, lines: merged.map((e) => e.line), bytes: reads[0].bytes + reads[1].bytes, cut: reads.some((r) => r.cut) };
  } catch (error) {
    return { ...base, lines: [], bytes: 0, cut: false, refused: reasonOf(error) };
  }
}

async function entries(
  base: URL,
  matches: Record<string, string>,
  settings: LogSettings,
  ca?: string[],
): Promise<{ entries: Entry[]; bytes: number; cut: boolean }> {
  const url = new URL("/entries", base);
  for (const [key, value] of Object.entries(matches)) url.searchParams.append(key, value);
  const n = settings.tailLines;
  const { status, body, cut } = await get(url, { Accept: "application/json", Range: `entries=:-${n}:${n + 1}` }, settings.limitBytes, ca);
  if (status !== 200) throw new Error(`GET ${url.pathname}: ${status} ${body.toString("utf8").trim().slice(0, 200)}`);
  const lines = splitLines(body.toString("utf8"));
  // A body cut at limitBytes ends in a partial entry: it is dropped, not misread.
  if (cut) lines.pop();
  const parsed = lines.flatMap((l) => {
    const entry = formatEntry(l);
    return entry ? [entry] : [];
  });
  return { entries: parsed.slice(-n), bytes: body.length, cut };
}

/** One JSON entry as journalctl's short output shows it, with an ISO time: "<time> <host> <ident>[<pid>]: <message>". */
function formatEntry(json: string): Entry | undefined {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof e !== "object" || e === null) return undefined;
  const micros = Number(e.__REALTIME_TIMESTAMP);
  if (!Number.isFinite(micros)) return undefined;
  const at = Math.floor(micros / 1000);
  const text = (v: unknown) => (typeof v === "string" ? v : Array.isArray(v) ? Buffer.from(v.filter((b) => Number.isInteger(b))).toString("utf8") : "");
  const ident = text(e.SYSLOG_IDENTIFIER) || text(e._COMM) || "unknown";
  const pid = text(e._PID);
  const stamp = new Date(at).toISOString();
  return { at, line: `${stamp} ${text(e._HOSTNAME) || "-"} ${ident}${pid ? `[${pid}]` : ""}: ${text(e.MESSAGE)}` };
}

function get(url: URL, headers: Record<string, string>, maxBytes: number, ca?: string[]): Promise<{ status: number; body: Buffer; cut: boolean }> {
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = lib.request(url, { method: "GET", headers, timeout: TIMEOUT_MS, ...(ca ? { ca } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (cut: boolean) => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, maxBytes), cut });
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size <= maxBytes) return;
        response.removeAllListeners("data");
        response.removeAllListeners("end");
        response.destroy();
        done(true);
      });
      response.on("end", () => done(false));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url.origin}${url.pathname}: timed out after ${TIMEOUT_MS} ms`)));
    request.on("error", reject);
    request.end();
  });
}
