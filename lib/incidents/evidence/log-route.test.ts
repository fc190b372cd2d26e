import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/v1/incidents/[id]/logs/route";
import { setDatabaseUrl } from "@/lib/env";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { applyRound } from "../rounds/apply-round";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { recordLogReadings } from "./log-evidence";

// GET and POST /api/v1/incidents/{id}/logs as Next calls them, on a real PostgreSQL: what the page reads, and the
// refusals a responder can meet (an incident of a cluster this server does not watch, a body with fields).

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
});
afterAll(async () => db.close());

const request = (method: string, path: string, body?: string) =>
  new NextRequest(`http://127.0.0.1:3000${path}`, { method, ...(body !== undefined ? { body, headers: { "content-type": "application/json" } } : {}) });
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });

describe("/api/v1/incidents/{id}/logs", () => {
  it("lists each source: telling lines first, classes, bytes; a refused one says why; no secret comes back", async () => {
    const id = (await applyRound(db.prisma, "far-away", [signal("kms.plugin.unhealthy", "master-1/1", "critical", "connection refused")], at(0), config))
      .opened[0];
    await recordLogReadings(
      db.prisma,
      id,
      [
        {
          kind: "pod-log",
          key: "pod:openshift-kube-apiserver/kube-apiserver-master-1/kms-plugin-1/previous",
          source: "kube-apiserver-master-1 kms-plugin-1 (previous instance)",
          lines: [
            '{"level":"INFO","message":"auth.login","operation":"auth.login","status":"ok"}',
            "token=hvs.CAESIJ7mXq3kzQ2b8Yd0pLr6WnT4gH5sVxA1cE9uF0oKiZ3a",
            "panic: runtime error: invalid memory address or nil pointer dereference",
          ],
          bytes: 400,
          cut: false,
        },
        {
          kind: "journal",
          key: "journal:master-1/bao-kms-provider.service",
          source: "journal of bao-kms-provider.service on master-1",
          lines: [],
          bytes: 0,
          cut: false,
          refused: "connect ECONNREFUSED 10.0.0.11:19531",
        },
      ],
      "faultline",
      at(5),
    );
    const answer = await GET(request("GET", `/api/v1/incidents/${id}/logs`), params(String(id)));
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      sources: { source: string; read?: { lines: { text: string }[]; bytes: number }; refused?: { reason: string } }[];
      bytes: number;
    };
    expect(body.bytes).toBe(400);
    expect(body.sources.map((s) => s.source)).toEqual([
      "kube-apiserver-master-1 kms-plugin-1 (previous instance)",
      "journal of bao-kms-provider.service on master-1",
    ]);
    expect(body.sources[0].read!.lines[0].text).toBe("panic: runtime error: invalid memory address or nil pointer dereference");
    expect(JSON.stringify(body)).not.toContain("hvs.CAES");
    expect(body.sources[1].refused?.reason).toBe("connect ECONNREFUSED 10.0.0.11:19531");
  });

  it("POST: 409 for a cluster no monitor here watches, 404 for no incident, 400 for a body with fields", async () => {
    const id = (await applyRound(db.prisma, "not-watched", [signal("openbao.sealed", "openbao", "critical", "sealed")], at(0), config)).opened[0];
    const conflict = await POST(request("POST", `/api/v1/incidents/${id}/logs`, "{}"), params(String(id)));
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error).toBe('this server does not watch cluster "not-watched", so it cannot read its logs');
    expect((await POST(request("POST", "/api/v1/incidents/987654/logs", "{}"), params("987654"))).status).toBe(404);
    const fields = await POST(request("POST", `/api/v1/incidents/${id}/logs`, '{"node":"master-0; rm -rf /"}'), params(String(id)));
    expect(fields.status).toBe(400);
    expect((await GET(request("GET", "/api/v1/incidents/abc/logs"), params("abc"))).status).toBe(400);
  });
});
