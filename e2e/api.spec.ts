import { expect, test } from "@playwright/test";

test("the catalog API filters like the page and rejects bad filters with field errors", async ({ request }) => {
  const ok = await request.get("/api/v1/catalog?startup=yes&dataLoss=yes");
  expect(ok.status()).toBe(200);
  const body = await ok.json();
  expect(body.count).toBe(3);
  expect(body.total).toBe(78);
  expect(body.entries.map((e: { id: string }) => e.id)).toContain("transit-key-deleted");

  const bad = await request.get("/api/v1/catalog?dataLoss=lots&bogus=1");
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({
    error: "invalid request",
    fields: {
      dataLoss: ["dataLoss must be one of: yes, possible, confidentiality-loss, no"],
      bogus: [expect.stringContaining("unknown parameter")],
    },
  });
});

test("one catalog entry by id, and a JSON 404 for an unknown id", async ({ request }) => {
  const entry = await request.get("/api/v1/catalog/openbao-sealed");
  expect(entry.status()).toBe(200);
  expect(await entry.json()).toMatchObject({
    id: "openbao-sealed",
    kind: "failure-mode",
    startupBlock: { level: "yes" },
    signals: expect.arrayContaining(["openbao.sealed"]),
  });
  const missing = await request.get("/api/v1/catalog/openbao-exploded");
  expect(missing.status()).toBe(404);
  expect(missing.headers()["content-type"]).toContain("application/json");
  expect(await missing.json()).toEqual({ error: 'no catalog entry with id "openbao-exploded"', id: "openbao-exploded" });
});

test("liveness, readiness and metrics", async ({ request }) => {
  expect((await request.get("/api/healthz")).status()).toBe(200);
  const ready = await request.get("/api/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ ready: true, database: "up", pendingMigrations: 0 });

  await request.get("/catalog/openbao-sealed");
  await request.get("/catalog/no-such-entry");
  const metrics = await (await request.get("/metrics")).text();
  expect(metrics).toContain("process_cpu_seconds_total");
  expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/catalog\/\[id\]",status="200"\} \d+/);
  expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/catalog\/\[id\]",status="404"\} \d+/);
  expect(metrics).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/readyz",status="200"\}/);
});
