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
});
