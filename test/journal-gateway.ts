import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { onFreePort } from "@/lib/free-port";

// A real systemd-journal-gatewayd serving journal files that the real systemd-journal-remote wrote from Journal
// Export Format (Debian's systemd-journal-remote): no running systemd needed. systemd-socket-activate hands
// gatewayd a socket on loopback, as systemd's socket unit would.

const REMOTE = "/lib/systemd/systemd-journal-remote";
const GATEWAYD = "/lib/systemd/systemd-journal-gatewayd";
const ACTIVATE = "/usr/bin/systemd-socket-activate";

export interface JournalEntry {
  at: Date;
  fields: Record<string, string>;
}

export interface RunningGateway {
  url: string;
  stop: () => Promise<void>;
}

export function requireJournalTools(): void {
  const missing = [REMOTE, GATEWAYD, ACTIVATE].filter((f) => !existsSync(f));
  if (missing.length > 0) throw new Error(`missing ${missing.join(", ")}: apt-get install --no-install-recommends systemd-journal-remote`);
}

/** Journal Export Format: one field a line, each entry ended by a blank line (the last one too, or it is dropped) (https://systemd.io/JOURNAL_EXPORT_FORMATS). */
function exportFormat(entries: JournalEntry[], boot: string): string {
  return entries
    .map((e, i) => {
      const us = BigInt(e.at.getTime()) * 1000n;
      const fields = { __REALTIME_TIMESTAMP: String(us), __MONOTONIC_TIMESTAMP: String(1_000_000 + i * 1000), _BOOT_ID: boot, ...e.fields };
      return `${Object.entries(fields)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n")}\n\n`;
    })
    .join("");
}

export async function startJournalGateway(entries: JournalEntry[]): Promise<RunningGateway> {
  requireJournalTools();
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-journal-"));
  await new Promise<void>((resolve, reject) => {
    const child = execFile(REMOTE, ["-o", path.join(dir, "remote.journal"), "-"], (error, _out, stderr) =>
      error ? reject(new Error(`systemd-journal-remote failed: ${stderr}`)) : resolve(),
    );
    child.stdin!.end(exportFormat(entries, "6f1c2e9a0b3d4c5e8f7a6b5c4d3e2f10"));
  });
  let child: ChildProcess | undefined;
  const port = await onFreePort(async (p) => {
    child = spawn(ACTIVATE, ["-l", `127.0.0.1:${p}`, GATEWAYD, "-D", dir], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // systemd-socket-activate prints "Listening on ..." once the socket is bound, or why it could not bind.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (/Listening on/.test(stderr)) resolve();
        else if (/Address already in use|Failed/.test(stderr)) reject(new Error(`address already in use: ${stderr}`));
      };
      child!.stderr!.on("data", check);
      child!.once("exit", (code) => reject(new Error(`systemd-socket-activate exited (${code}): ${stderr}`)));
    });
    return p;
  });
  const url = `http://127.0.0.1:${port}`;
  await answers(url);
  return {
    url,
    stop: async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child!.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** gatewayd is exec'd on the first connection: this one waits for its /machine answer. */
function answers(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/machine`, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`gatewayd answered ${res.statusCode}`))));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("gatewayd did not answer /machine in 10 s")));
    req.on("error", reject);
    req.end();
  });
}
