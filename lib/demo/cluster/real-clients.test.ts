import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoCluster } from "./cluster";
import { kubeconfigFor } from "./kubeconfig";
import { DemoServer } from "./server";

// The demo cluster driven by real clients, as a user drives it: Debian's kubectl (package
// kubernetes-client, extracted by scripts/test.sh) and the official Python client (python3-kubernetes).
// When the simulator and a real client disagree, this fails; when a client is missing, it fails too.

const KUBECTL = process.env.FAULTLINE_KUBECTL ?? path.resolve(".data/tools/kubernetes-client/usr/bin/kubectl");
const PYTHON = "/usr/bin/python3";

let server: DemoServer;
let dir: string;
let kubeconfig: string;

function run(file: string, args: string[], timeoutMs = 15_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir }, timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** kubectl with its own discovery cache; the admin context where a test writes. */
async function kubectl(args: string[], opts: { admin?: boolean; fail?: boolean } = {}) {
  const r = await run(KUBECTL, [`--cache-dir=${path.join(dir, "cache")}`, ...(opts.admin ? ["--context=demo-admin"] : []), ...args]);
  if (!opts.fail && r.code !== 0) throw new Error(`kubectl ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r;
}

async function python(code: string): Promise<string> {
  const file = path.join(dir, `client-${Math.random().toString(36).slice(2)}.py`);
  const body = code.replaceAll('"__KUBECONFIG__"', JSON.stringify(kubeconfig));
  writeFileSync(
    file,
    `import json, sys\nfrom kubernetes import client, config, watch\nconfig.load_kube_config(config_file=${JSON.stringify(kubeconfig)})\n${body}\n`,
  );
  const r = await run(PYTHON, [file]);
  if (r.code !== 0) throw new Error(`python failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

beforeAll(async () => {
  const missing: string[] = [];
  if (!existsSync(KUBECTL)) missing.push(`Debian's kubectl at ${KUBECTL} (apt-get download kubernetes-client; dpkg-deb -x; scripts/test.sh does it)`);
  if (!existsSync(PYTHON) || (await run(PYTHON, ["-c", "import kubernetes"])).code !== 0)
    missing.push(`the official Python client for ${PYTHON} (apt-get install python3-kubernetes)`);
  if (missing.length > 0) throw new Error(`real clients missing: ${missing.join("; ")}`);
  // Bookmarks every 300 ms so the bookmark test need not wait the real minute.
  server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }), bookmarkIntervalMs: 300 });
  const endpoints = await server.start();
  dir = mkdtempSync(path.join(tmpdir(), "faultline-real-clients-"));
  kubeconfig = path.join(dir, "demo.kubeconfig");
  writeFileSync(kubeconfig, kubeconfigFor("demo", endpoints), { mode: 0o600 });
}, 30_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const lines = (text: string) => text.trim().split("\n");

describe("kubectl against the demo cluster", () => {
  it("verifies the server's certificate with the CA in the kubeconfig, and reports both versions", async () => {
    const { stdout } = await kubectl(["version"]);
    expect(stdout).toMatch(/Server Version: .*GitVersion:"v1\.35\.3"/);
  });

  it("get nodes,kubeapiservers -o wide prints the real columns", async () => {
    const { stdout } = await kubectl(["get", "nodes,kubeapiservers", "-o", "wide"]);
    const out = lines(stdout);
    expect(out[0].split(/\s{2,}/)).toEqual([
      "NAME",
      "STATUS",
      "ROLES",
      "AGE",
      "VERSION",
      "INTERNAL-IP",
      "EXTERNAL-IP",
      "OS-IMAGE",
      "KERNEL-VERSION",
      "CONTAINER-RUNTIME",
    ]);
    expect(out[1]).toMatch(/^node\/master-0\s+Ready\s+control-plane,master\s+\S+\s+v1\.35\.3\s+10\.0\.0\.10\s+<none>/);
    expect(stdout).toMatch(/\nNAME\s+AGE\nkubeapiserver\.operator\.openshift\.io\/cluster\s+\S+/);
  });

  it("prints json, yaml, name, jsonpath and custom-columns", async () => {
    const json = JSON.parse((await kubectl(["get", "nodes", "-o", "json"])).stdout);
    expect([json.kind, json.items.length]).toEqual(["List", 3]);
    expect((await kubectl(["get", "kubeapiserver", "cluster", "-o", "yaml"])).stdout).toMatch(
      /^apiVersion: operator\.openshift\.io\/v1\nkind: KubeAPIServer\n/,
    );
    expect(lines((await kubectl(["get", "nodes", "-o", "name"])).stdout)).toEqual(["node/master-0", "node/master-1", "node/master-2"]);
    expect((await kubectl(["get", "pods", "-A", "-o", "jsonpath={.items[0].status.containerStatuses[0].imageID}"])).stdout).toMatch(/@sha256:/);
    expect(lines((await kubectl(["get", "nodes", "-o", "custom-columns=NODE:.metadata.name,IP:.status.addresses[0].address"])).stdout)).toEqual([
      "NODE       IP",
      "master-0   10.0.0.10",
      "master-1   10.0.0.11",
      "master-2   10.0.0.12",
    ]);
  });

  it("api-resources lists what discovery offers, with short names", async () => {
    const { stdout } = await kubectl(["api-resources"]);
    expect(stdout).toMatch(/\nnodes\s+no\s+v1\s+false\s+Node\n/);
    expect(stdout).toMatch(/\nkubeapiservers\s+operator\.openshift\.io\/v1\s+false\s+KubeAPIServer/);
    expect((await kubectl(["get", "no", "-o", "name"])).stdout).toContain("node/master-1");
  });

  it("get -w receives a change as it happens", async () => {
    const watching = kubectl(["get", "nodes", "-w", "--request-timeout=4s"], { fail: true });
    await new Promise((r) => setTimeout(r, 1500));
    await kubectl(["label", "node", "master-1", "watched=yes"], { admin: true });
    const { stdout } = await watching;
    const out = lines(stdout);
    expect(out[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    // Three rows from the list, then master-1 again for the change.
    expect(out.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["master-0", "master-1", "master-2", "master-1"]);
  });

  it("server-side apply: a conflict is a 409 naming the other manager; --force-conflicts takes the field; an identical apply changes nothing", async () => {
    const file = path.join(dir, "kas.yaml");
    const manifest = (level: string) => `apiVersion: operator.openshift.io/v1\nkind: KubeAPIServer\nmetadata:\n  name: cluster\nspec:\n  logLevel: ${level}\n`;
    writeFileSync(file, manifest("Debug"));
    await kubectl(["apply", "--server-side", "--field-manager=sre-a", "-f", file], { admin: true });
    writeFileSync(file, manifest("Trace"));
    const conflict = await kubectl(["apply", "--server-side", "--field-manager=sre-b", "-f", file], { admin: true, fail: true });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "sre-a" using operator.openshift.io/v1: .spec.logLevel');
    await kubectl(["apply", "--server-side", "--field-manager=sre-b", "--force-conflicts", "-f", file], { admin: true });
    const rv = (await kubectl(["get", "kubeapiserver", "cluster", "-o", "jsonpath={.spec.logLevel} {.metadata.resourceVersion}"])).stdout;
    expect(rv).toMatch(/^Trace \d+$/);
    await kubectl(["apply", "--server-side", "--field-manager=sre-b", "-f", file], { admin: true });
    expect((await kubectl(["get", "kubeapiserver", "cluster", "-o", "jsonpath={.spec.logLevel} {.metadata.resourceVersion}"])).stdout).toBe(rv);
  });

  it("patch --type merge, json and strategic; label keys with / are kept apart and removed alone", async () => {
    await kubectl(["patch", "node", "master-2", "--type", "merge", "-p", '{"metadata":{"labels":{"team":"kms"}}}'], { admin: true });
    await kubectl(["patch", "node", "master-2", "--type", "json", "-p", '[{"op":"add","path":"/metadata/labels/tier","value":"gold"}]'], { admin: true });
    await kubectl(["patch", "node", "master-2", "--type", "strategic", "-p", '{"spec":{"taints":[{"key":"maintenance","effect":"NoSchedule"}]}}'], {
      admin: true,
    });
    const node = JSON.parse((await kubectl(["get", "node", "master-2", "-o", "json"])).stdout);
    expect(node.metadata.labels).toMatchObject({ team: "kms", tier: "gold", "kubernetes.io/hostname": "master-2" });
    // Strategic merge adds to a list with a merge key (taints by key) where a merge patch would replace it.
    expect(node.spec.taints).toEqual([
      { key: "node-role.kubernetes.io/master", effect: "NoSchedule" },
      { key: "maintenance", effect: "NoSchedule" },
    ]);
    await kubectl(["label", "node", "master-2", "example.com/zone=a"], { admin: true });
    await kubectl(["label", "node", "master-2", "example.com/zone-"], { admin: true });
    const labels = JSON.parse((await kubectl(["get", "node", "master-2", "-o", "jsonpath={.metadata.labels}"])).stdout);
    expect(labels).toEqual({ ...node.metadata.labels });
    const failed = await kubectl(["patch", "node", "master-2", "--type", "json", "-p", '[{"op":"test","path":"/metadata/labels/team","value":"other"}]'], {
      admin: true,
      fail: true,
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^The request is invalid/);
    expect((await kubectl(["get", "node", "master-2", "-o", "jsonpath={.metadata.labels.team}"])).stdout).toBe("kms");
  });

  it("selects with -l (equality and set-based) and refuses an unsupported field selector", async () => {
    await kubectl(["label", "node", "master-0", "pool=blue"], { admin: true });
    await kubectl(["label", "node", "master-1", "pool=green"], { admin: true });
    const names = async (selector: string) => lines((await kubectl(["get", "nodes", "-l", selector, "-o", "name"])).stdout);
    expect(await names("pool=blue")).toEqual(["node/master-0"]);
    expect(await names("pool!=blue")).toEqual(["node/master-1", "node/master-2"]);
    expect(await names("pool in (blue,green)")).toEqual(["node/master-0", "node/master-1"]);
    expect(await names("pool notin (blue)")).toEqual(["node/master-1", "node/master-2"]);
    expect(await names("!pool")).toEqual(["node/master-2"]);
    expect(lines((await kubectl(["get", "nodes", "--field-selector", "metadata.name=master-1", "-o", "name"])).stdout)).toEqual(["node/master-1"]);
    const refused = await kubectl(["get", "nodes", "--field-selector", "spec.foo=bar"], { fail: true });
    expect(refused.stderr).toContain("field label not supported: spec.foo");
  });

  it("pages with --chunk-size", async () => {
    const { stdout, stderr } = await kubectl(["get", "nodes", "--chunk-size=1", "-o", "name", "-v=6"]);
    expect(lines(stdout)).toEqual(["node/master-0", "node/master-1", "node/master-2"]);
    expect(stderr.match(/GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/nodes\?[^ ]*limit=1/g)).toHaveLength(3);
  });

  it("--dry-run=server answers as the write would, and changes nothing", async () => {
    const before = (await kubectl(["get", "node", "master-0", "-o", "jsonpath={.metadata.resourceVersion}"])).stdout;
    const { stdout } = await kubectl(["label", "node", "master-0", "dryrun=yes", "--dry-run=server", "-o", "jsonpath={.metadata.labels.dryrun}"], {
      admin: true,
    });
    expect(stdout).toBe("yes");
    const after = JSON.parse((await kubectl(["get", "node", "master-0", "-o", "json"])).stdout);
    expect(after.metadata.labels.dryrun).toBeUndefined();
    expect(after.metadata.resourceVersion).toBe(before);
  });
});

describe("the official Python client against the demo cluster", () => {
  it("lists with a label selector, pages with limit and _continue, and deserializes every built-in kind", async () => {
    const out = await python(`
v1 = client.CoreV1Api()
apps = client.AppsV1Api()
adm = client.AdmissionregistrationV1Api()
selected = [n.metadata.name for n in v1.list_node(label_selector="kubernetes.io/hostname in (master-0,master-2)").items]
first = v1.list_node(limit=2)
rest = v1.list_node(limit=2, _continue=first.metadata._continue)
pod = v1.list_namespaced_pod("payments").items[0]
kinds = [len(v1.list_namespace().items), len(v1.list_endpoints_for_all_namespaces().items), len(apps.list_deployment_for_all_namespaces().items), len(apps.list_daemon_set_for_all_namespaces().items), len(adm.list_mutating_webhook_configuration().items)]
print(json.dumps({"selected": selected, "first": [n.metadata.name for n in first.items], "remaining": first.metadata.remaining_item_count, "rest": [n.metadata.name for n in rest.items], "last": rest.metadata._continue, "imageID": pod.status.container_statuses[0].image_id, "kinds": kinds}))`);
    const r = JSON.parse(out);
    expect(r.selected).toEqual(["master-0", "master-2"]);
    expect([r.first, r.remaining, r.rest, r.last]).toEqual([["master-0", "master-1"], 1, ["master-2"], null]);
    expect(r.imageID).toMatch(/^registry\.example\/payments-api@sha256:[0-9a-f]{64}$/);
    expect(r.kinds.every((n: number) => n > 0)).toBe(true);
  });

  it("watches with watch=True and allow_watch_bookmarks: events arrive, then bookmarks", async () => {
    const out = await python(`
v1 = client.CoreV1Api()
seen = []
w = watch.Watch()
for ev in w.stream(v1.list_node, allow_watch_bookmarks=True, timeout_seconds=2):
    seen.append(ev["type"])
    if "BOOKMARK" in seen: w.stop()
print(json.dumps(seen))`);
    const seen = JSON.parse(out) as string[];
    expect(seen.slice(0, 3)).toEqual(["ADDED", "ADDED", "ADDED"]);
    expect(seen).toContain("BOOKMARK");
  });

  it("patches with the admin context", async () => {
    const out = await python(`
api = client.CoreV1Api(config.new_client_from_config(config_file=${JSON.stringify("__KUBECONFIG__")}, context="demo-admin"))
print(api.patch_node("master-1", {"metadata": {"labels": {"from-python": "yes"}}}).metadata.labels["from-python"])`);
    expect(out).toBe("yes");
    expect((await kubectl(["get", "node", "master-1", "-o", "jsonpath={.metadata.labels.from-python}"])).stdout).toBe("yes");
  });
});
