import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningPrometheus } from "./process";
import { startEmptyPrometheus } from "@/test/prometheus";

// The Prometheus child process gets only what it needs: never the server's DATABASE_URL or any other secret.

let prom: RunningPrometheus;
const saved = { DATABASE_URL: process.env.DATABASE_URL, FAULTLINE_OPENBAO_TOKEN: process.env.FAULTLINE_OPENBAO_TOKEN };
beforeAll(async () => {
  // What the server holds at run time (set here so the test cannot pass merely because the variables are unset).
  process.env.DATABASE_URL = "postgres://faultline:s3cret-password@127.0.0.1:5432/faultline";
  process.env.FAULTLINE_OPENBAO_TOKEN = "hvs.not-for-children";
  prom = await startEmptyPrometheus();
});
afterAll(async () => {
  await prom?.stop();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the Prometheus child process", () => {
  it("runs with an environment that holds no database URL, token or other variable of the server", () => {
    const environ = readFileSync(`/proc/${prom.pid}/environ`, "utf8").split("\0").filter(Boolean);
    expect(environ.join("\n")).not.toMatch(/s3cret-password|hvs\.not-for-children/);
    expect(environ.map((line) => line.split("=")[0])).toEqual(["LANG"]);
  });

  it("still starts and answers without them", async () => {
    expect((await fetch(`${prom.url}/-/ready`)).status).toBe(200);
  });
});
