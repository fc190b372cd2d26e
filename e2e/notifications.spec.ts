import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { CRASH_TOKEN, drive, freePort, kill, startServer, tally, waitDrained, waitReady, type Server, type ServerOptions } from "../test/notify-crash";
import { startTestReceiver, type TestReceiver } from "../test/notify-receiver";
import { shot } from "./helpers";

// Notifications end to end: a Faultline of its own (the shared webServer sends none) built and started as `npm start`
// does, with two receivers (JSON and Slack) on a loopback receiver, and a PostgreSQL of its own so that SIGKILL
// takes the server and not the database.

test.describe.configure({ mode: "serial" });

let dir: string;
let db: { url: string; stop: () => Promise<void> };
let receiver: TestReceiver;
let options: ServerOptions;
let server: Server;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = await mkdtemp(path.join(tmpdir(), "faultline-e2e-notify-"));
  await chmod(dir, 0o711); // as root, PostgreSQL runs as "postgres" and must reach its folder
  db = await startEmbeddedPostgres(path.join(dir, "db"), () => undefined);
  receiver = await startTestReceiver();
  options = {
    root: process.cwd(),
    port: await freePort(),
    databaseUrl: db.url,
    dataDir: path.join(dir, "data"),
    receiverUrl: receiver.url,
    logFile: "test-results/notify-e2e-server.log",
  };
  server = startServer(options);
  expect(await waitReady(server)).toBe(true);
});

test.afterAll(async () => {
  if (server) await kill(server, "SIGTERM");
  await receiver?.close();
  await db?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const alert = (status: "firing" | "resolved", startsAt: string) => ({
  version: "4",
  groupKey: '{}:{cluster="notify-e2e"}',
  status,
  receiver: "faultline",
  alerts: [
    {
      status,
      labels: { alertname: "OpenBaoSealed", cluster: "notify-e2e", faultline_subject: "openbao", severity: "critical", faultline_catalog_id: "openbao-sealed" },
      annotations: { summary: "OpenBao <!channel> sealed & locked" },
      startsAt,
      ...(status === "resolved" ? { endsAt: new Date().toISOString() } : {}),
      fingerprint: "notify-e2e-openbao",
    },
  ],
});

test("each change reaches both receivers once per idempotency key, and the timeline says so", async ({ page, request }) => {
  test.setTimeout(120_000);
  const hook = { headers: { authorization: `Bearer ${CRASH_TOKEN}` } };
  const same = { headers: { origin: server.url } };
  const startsAt = new Date().toISOString();
  expect((await request.post(`${server.url}/api/v1/alerts/alertmanager`, { data: alert("firing", startsAt), ...hook })).ok()).toBe(true);
  const list = await (await request.get(`${server.url}/api/v1/incidents?cluster=notify-e2e`)).json();
  const id = list.incidents[0].id as number;
  expect((await request.post(`${server.url}/api/v1/incidents/${id}/acknowledge`, { data: { note: "on it" }, ...same })).ok()).toBe(true);
  expect((await request.post(`${server.url}/api/v1/incidents/${id}/resolve`, { data: { resolution: "unsealed" }, ...same })).ok()).toBe(true);
  // The alert recovers and fires again: the incident reopens.
  await request.post(`${server.url}/api/v1/alerts/alertmanager`, { data: alert("resolved", startsAt), ...hook });
  await request.post(`${server.url}/api/v1/alerts/alertmanager`, { data: alert("firing", new Date().toISOString()), ...hook });

  const ofIncident = () => receiver.requests.filter((r) => r.key.startsWith(`faultline-${id}-`));
  await expect.poll(() => ofIncident().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(8);
  const pager = ofIncident().filter((r) => r.key.endsWith("-pager"));
  expect(pager.map((r) => (r.body as { kind: string }).kind)).toEqual(["opened", "acknowledged", "resolved", "reopened"]);
  for (const r of ofIncident()) {
    expect(receiver.delivered.get(r.key)).toBe(1);
    expect(r.headers["idempotency-key"]).toBe(r.key);
  }
  expect(new Set(ofIncident().map((r) => r.key)).size).toBe(ofIncident().length);
  expect(pager[0].body).toMatchObject({
    incident: { id, link: `https://faultline.example.org/incidents/${id}`, cluster: "notify-e2e" },
    suspects: [{ id: "openbao-sealed", link: "https://faultline.example.org/catalog/openbao-sealed" }],
  });
  const chat = ofIncident().find((r) => r.key.endsWith("-chat"))!.body as { text: string };
  expect(chat.text).toContain("&lt;!channel&gt; sealed &amp; locked");
  expect(chat.text).not.toContain("<!channel>");

  await page.goto(`${server.url}/incidents/${id}`);
  const timeline = page.getByTestId("timeline");
  await expect(timeline.locator('li[data-kind="notification_sent"]')).toHaveCount(8);
  await expect(timeline).toContainText('notification "opened" to pager: sent (HTTP 200)');
  await expect(timeline).toContainText('notification "reopened" to chat: sent (HTTP 200)');
  await expect(timeline.getByTestId("notification-attempt").first()).toContainText(`key faultline-${id}-`);
  await shot(page, "80-incident-notifications");
});

test("SIGKILL in the middle of changes loses no notification and duplicates none after dedupe", async () => {
  test.setTimeout(240_000);
  receiver.answer = () => (Math.random() < 0.1 ? { status: 503 } : { status: 200, delayMs: Math.random() * 200 });
  const seq = { n: 0 };
  for (let k = 0; k < 3; k++) {
    const driver = drive(server, seq);
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000));
    await kill(server);
    await driver.stop();
    server = startServer(options);
    expect(await waitReady(server)).toBe(true);
  }
  expect(await waitDrained(db.url, 60_000)).toBe(0);
  const t = await tally(db.url, receiver);
  console.log(`notify crash (3 kills): ${JSON.stringify(t)}`);
  expect(t.expected).toBeGreaterThan(8);
  expect(t).toMatchObject({ missingRows: 0, lost: 0, unexpected: 0, duplicatedAfterDedupe: 0, failed: 0, pending: 0 });
});
