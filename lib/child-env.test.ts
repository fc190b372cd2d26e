import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { childEnv } from "./child-env";

// The build that `npm start` runs is a child process: it sees none of the server's secrets.

describe("a child process's environment", () => {
  it("holds no database URL, token or password, and still runs with the path, locale and Node switches", () => {
    const server = {
      ...process.env,
      DATABASE_URL: "postgres://faultline:s3cret-password@127.0.0.1:5432/faultline",
      FAULTLINE_OPENBAO_TOKEN: "hvs.not-for-children",
      AWS_SECRET_ACCESS_KEY: "aws-not-for-children",
      PGPASSWORD: "pg-not-for-children",
      FAULTLINE_NOTIFY_WEBHOOKS: '[{"name":"chat","url":"https://hooks.slack.com/services/T0/B0/not-for-children"}]',
      NODE_ENV: "production" as const,
      NEXT_TELEMETRY_DISABLED: "1",
      FAULTLINE_DEMO: "off",
    };
    // A real child, as the build is started: what it prints is what it was given.
    const run = spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.env))"], { env: childEnv(server), encoding: "utf8" });
    expect(run.status).toBe(0);
    const seen = JSON.parse(run.stdout) as Record<string, string>;
    expect(run.stdout).not.toMatch(/not-for-children|s3cret-password/);
    expect(Object.keys(seen)).not.toContain("DATABASE_URL");
    expect(seen).toMatchObject({ NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", FAULTLINE_DEMO: "off" });
    if (process.env.PATH) expect(seen.PATH).toBe(process.env.PATH);
  });
});
