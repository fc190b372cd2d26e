import { afterEach, describe, expect, it } from "vitest";
import { DemoCluster } from "./cluster";
import { DemoServer, type DemoEndpoints } from "./server";
import { openStream, rawRequest } from "@/test/demo-request";

// API semantics on the wire that no single client shows: Go's boolean spellings, public health,
// discovery paths, gzip, the server's own watch timeout, selector watches, paging across a restart.

let server: DemoServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function start(opts: { nodes?: number; minRequestTimeoutSeconds?: number } = {}): Promise<DemoEndpoints> {
  server = new DemoServer({
    cluster: new DemoCluster({ nodes: opts.nodes ?? 3, intervalMs: 60_000 }),
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
  });
  return server.start();
}

const firstLine = async (ep: DemoEndpoints, path: string) => {
  let line = "";
  const stream = openStream(ep, path, ep.readToken, (l) => {
    line ||= l;
    stream.abort();
  });
  await stream.ended;
  return { status: stream.status(), line };
};

describe("the simulated API server's semantics", () => {
  it("reads watch (and every boolean) in each spelling Go's strconv.ParseBool accepts, and refuses others with 400", async () => {
    const ep = await start();
    for (const spelling of ["1", "t", "T", "TRUE", "true", "True"]) {
      const { status, line } = await firstLine(ep, `/api/v1/nodes?watch=${spelling}`);
      expect([spelling, status, JSON.parse(line).type]).toEqual([spelling, 200, "ADDED"]);
    }
    for (const spelling of ["0", "f", "F", "FALSE", "false", "False"]) {
      const r = await rawRequest(ep, `/api/v1/nodes?watch=${spelling}`, { token: ep.readToken });
      expect([spelling, JSON.parse(r.body).kind]).toEqual([spelling, "NodeList"]);
    }
    const bad = await rawRequest(ep, "/api/v1/nodes?watch=yes", { token: ep.readToken });
    expect([bad.status, JSON.parse(bad.body).message]).toEqual([400, 'strconv.ParseBool: parsing "yes": invalid syntax']);
  });

  it("answers /healthz, /livez, /readyz and /version without a token, and everything else only with one", async () => {
    const ep = await start();
    for (const path of ["/healthz", "/livez", "/readyz", "/version", "/version/", "/readyz?verbose", "/kube-apiserver/master-1/readyz"]) {
      expect((await rawRequest(ep, path)).status, path).toBe(200);
    }
    expect((await rawRequest(ep, "/livez?verbose")).body).toMatch(/\[\+\]etcd ok\n.*livez check passed\n$/s);
    for (const path of ["/api/v1/nodes", "/readyz/kms-providers", "/metrics", "/api"]) expect((await rawRequest(ep, path)).status, path).toBe(401);
  });

  it("serves discovery at every path kubectl asks for, with and without a trailing slash", async () => {
    const ep = await start();
    const get = async (path: string) => JSON.parse((await rawRequest(ep, path, { token: ep.readToken })).body);
    for (const path of ["/api", "/api/"]) expect((await get(path)).kind).toBe("APIVersions");
    for (const path of ["/apis", "/apis/"]) expect((await get(path)).groups.map((g: { name: string }) => g.name)).toContain("operator.openshift.io");
    for (const path of ["/apis/apps", "/apis/apps/"])
      expect(await get(path)).toMatchObject({ kind: "APIGroup", name: "apps", preferredVersion: { groupVersion: "apps/v1" } });
    const core = await get("/api/v1/");
    expect(core.resources.find((r: { name: string }) => r.name === "nodes")).toMatchObject({ shortNames: ["no"], verbs: ["get", "list", "watch", "patch"] });
    expect(core.resources.find((r: { name: string }) => r.name === "namespaces").verbs).toEqual(["get", "list", "watch"]);
    expect((await rawRequest(ep, "/apis/nope.example.com", { token: ep.readToken })).status).toBe(404);
  });

  it("gzips a large answer for a client that accepts it, and only then", async () => {
    const ep = await start({ nodes: 400 });
    const zipped = await rawRequest(ep, "/api/v1/nodes", { token: ep.readToken, headers: { "Accept-Encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    const plain = await rawRequest(ep, "/api/v1/nodes", { token: ep.readToken });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body).items).toHaveLength(400);
    const small = await rawRequest(ep, "/api/v1/namespaces", { token: ep.readToken, headers: { "Accept-Encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("ends a watch without timeoutSeconds by itself, as the real server does after its minimum request timeout", async () => {
    const ep = await start({ minRequestTimeoutSeconds: 1 });
    const stream = openStream(ep, "/api/v1/nodes?watch=true", ep.readToken, () => undefined);
    expect(await stream.ended).toEqual({});
  });

  it("a selector watch sees an object enter the selection as ADDED and leave it as DELETED", async () => {
    const ep = await start();
    const types: string[] = [];
    const stream = openStream(ep, "/api/v1/nodes?watch=1&labelSelector=pool%3Dblue", ep.readToken, (l) =>
      types.push(`${JSON.parse(l).type} ${JSON.parse(l).object.metadata.name}`),
    );
    const label = (value: string | null) =>
      rawRequest(ep, "/api/v1/nodes/master-1", {
        method: "PATCH",
        token: ep.adminToken,
        headers: { "Content-Type": "application/merge-patch+json" },
        body: JSON.stringify({ metadata: { labels: { pool: value } } }),
      });
    await new Promise((r) => setTimeout(r, 100));
    await label("blue");
    await label("green");
    await new Promise((r) => setTimeout(r, 100));
    stream.abort();
    expect(types).toEqual(["ADDED master-1", "DELETED master-1"]);
  });

  it("pages with limit and continue, and a continue token from before a restart answers 410", async () => {
    const ep = await start();
    const first = JSON.parse((await rawRequest(ep, "/api/v1/nodes?limit=2", { token: ep.readToken })).body);
    expect(first.metadata).toMatchObject({ remainingItemCount: 1 });
    await server!.restart();
    const stale = await rawRequest(ep, `/api/v1/nodes?limit=2&continue=${first.metadata.continue}`, { token: ep.readToken });
    expect([stale.status, JSON.parse(stale.body).reason]).toEqual([410, "Expired"]);
    const bad = await rawRequest(ep, "/api/v1/nodes?limit=2&continue=garbage", { token: ep.readToken });
    expect(bad.status).toBe(400);
  });

  it("an identical apply keeps the resourceVersion; dryRun=All stores nothing; another dryRun value is refused", async () => {
    const ep = await start();
    const apply = (query: string) =>
      rawRequest(ep, `/apis/operator.openshift.io/v1/kubeapiservers/cluster?fieldManager=sre${query}`, {
        method: "PATCH",
        token: ep.adminToken,
        headers: { "Content-Type": "application/apply-patch+yaml" },
        body: "apiVersion: operator.openshift.io/v1\nkind: KubeAPIServer\nmetadata: {name: cluster}\nspec: {logLevel: Debug}\n",
      });
    const rv = JSON.parse((await apply("")).body).metadata.resourceVersion;
    expect(JSON.parse((await apply("")).body).metadata.resourceVersion).toBe(rv);
    const node = (body: string, query = "") =>
      rawRequest(ep, `/api/v1/nodes/master-0${query}`, {
        method: "PATCH",
        token: ep.adminToken,
        headers: { "Content-Type": "application/strategic-merge-patch+json" },
        body,
      });
    const dry = await node('{"metadata":{"labels":{"dry":"run"}}}', "?dryRun=All");
    expect(JSON.parse(dry.body).metadata.labels.dry).toBe("run");
    expect(server!.cluster.object("", "nodes", "master-0")!.metadata).not.toHaveProperty("labels.dry");
    const refused = await node("{}", "?dryRun=Maybe");
    expect([refused.status, JSON.parse(refused.body).message]).toEqual([
      422,
      'PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Maybe"}: supported values: "All"',
    ]);
    const crd = await rawRequest(ep, "/apis/operator.openshift.io/v1/kubeapiservers/cluster", {
      method: "PATCH",
      token: ep.adminToken,
      headers: { "Content-Type": "application/strategic-merge-patch+json" },
      body: "{}",
    });
    expect(crd.status).toBe(415);
  });

  it("throttles the public health endpoints too, for a caller without a token", async () => {
    const ep = await start();
    server!.faults.set({ kind: "throttle", retryAfterSeconds: 3 });
    const r = await rawRequest(ep, "/readyz");
    expect([r.status, r.headers["retry-after"]]).toEqual([429, "3"]);
  });
});
