import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded";

describe("embedded postgres", () => {
  let dir: string;
  afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

  it("keeps its data across a stop and a second start", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "faultline-embedded-"));
    await chmod(dir, 0o711);
    const logs: string[] = [];
    const first = await startEmbeddedPostgres(dir, (line) => logs.push(line));
    expect(logs.join("\n")).toContain("creating a new cluster");
    expect(new URL(first.url).hostname).toBe("127.0.0.1");
    const write = new pg.Client({ connectionString: first.url });
    await write.connect();
    await write.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
    await write.end();
    await first.stop();

    logs.length = 0;
    const second = await startEmbeddedPostgres(dir, (line) => logs.push(line));
    expect(logs.join("\n")).not.toContain("creating a new cluster");
    const read = new pg.Client({ connectionString: second.url });
    await read.connect();
    expect((await read.query("SELECT v FROM kept")).rows).toEqual([{ v: "still here" }]);
    await read.end();
    await second.stop();
  });

  it("leaves the exit code of the process that used it alone (Vitest exited 0 with failing tests)", async () => {
    const own = await mkdtemp(path.join(tmpdir(), "faultline-embedded-exit-"));
    await chmod(own, 0o711);
    const script = [
      `const loaded = await import(${JSON.stringify(path.resolve("lib/db/embedded.ts"))});`,
      "const { startEmbeddedPostgres } = loaded.default ?? loaded;",
      `const server = await startEmbeddedPostgres(${JSON.stringify(own)}, () => undefined);`,
      "await server.stop();",
      "process.exitCode = 7;",
    ].join("\n");
    const ended = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(path.resolve("node_modules/.bin/tsx"), ["--input-type=module", "-e", script], (error, _out, stderr) =>
        resolve({ code: child.exitCode ?? (error as { code?: number } | null)?.code ?? null, stderr }),
      );
    });
    await rm(own, { recursive: true, force: true });
    expect(ended.stderr).not.toMatch(/TypeError|done is not a function/);
    expect(ended.code).toBe(7);
  });
});
