import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/test/database";
import { createClusterLock } from "./leader";

let db: { url: string; drop: () => Promise<void> };
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

function holder(cluster: string): Promise<{ child: ChildProcess; held: boolean }> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/bin/hold-cluster-lock.ts", db.url, cluster], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve({ child, held: chunk.toString().trim() === "held" }));
    child.once("exit", (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
}

describe("one monitor per cluster across processes", () => {
  it("lets one process hold a cluster, and another take over within seconds when it dies", async () => {
    const first = await holder("prod-east");
    expect(first.held).toBe(true);
    const second = createClusterLock(db.url, "prod-east");
    try {
      expect(await second.tryAcquire()).toBe(false);
      // Another cluster is independent.
      const other = createClusterLock(db.url, "prod-west");
      expect(await other.tryAcquire()).toBe(true);
      await other.release();

      const killedAt = Date.now();
      first.child.kill("SIGKILL");
      let took = false;
      while (!took && Date.now() - killedAt < 15_000) {
        await new Promise((r) => setTimeout(r, 250));
        took = await second.tryAcquire();
      }
      expect(took).toBe(true);
      expect(Date.now() - killedAt).toBeLessThan(15_000);
    } finally {
      await second.release();
      first.child.kill("SIGKILL");
    }
  });
});
