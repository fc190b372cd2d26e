import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoCluster } from "./cluster";
import { kubeconfigFor } from "./kubeconfig";
import { setScenario } from "./scenarios";
import { DemoServer } from "./server";

// The demo cluster's pod logs as real clients read them: Debian's kubectl logs (--tail, --since, --limit-bytes,
// --previous, --timestamps, -c) and @kubernetes/client-node's CoreV1Api.readNamespacedPodLog, with the
// simulator's clock pinned so the lines are known. The lines are the programs' own (container-logs.ts).

const KUBECTL = process.env.FAULTLINE_KUBECTL ?? path.resolve(".data/tools/kubernetes-client/usr/bin/kubectl");
const NS = "openshift-kube-apiserver";
const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);

let clock = T0;
let cluster: DemoCluster;
let server: DemoServer;
let forbidding: DemoServer;
let dir: string;
let kubeconfig: string;
let core: k8s.CoreV1Api;

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      KUBECTL,
      [`--cache-dir=${path.join(dir, "cache")}`, ...args],
      { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir }, timeout: 15_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const logs = async (pod: string, container: string, ...flags: string[]) => {
  const r = await kubectl(["logs", "-n", NS, pod, "-c", container, ...flags]);
  if (r.code !== 0) throw new Error(`kubectl logs ${pod} -c ${container} ${flags.join(" ")}: ${r.stderr}`);
  return r.stdout;
};
const lines = (text: string) => text.split("\n").filter(Boolean);
const json = (line: string) => JSON.parse(line) as Record<string, unknown>;

beforeAll(async () => {
  if (!existsSync(KUBECTL)) throw new Error(`Debian's kubectl is missing at ${KUBECTL} (scripts/test.sh unpacks it)`);
  dir = mkdtempSync(path.join(tmpdir(), "faultline-podlogs-"));
  cluster = new DemoCluster({ nodes: 3, intervalMs: 3_600_000, now: () => new Date(clock) });
  server = new DemoServer({ cluster });
  const endpoints = await server.start();
  kubeconfig = path.join(dir, "demo.kubeconfig");
  writeFileSync(kubeconfig, kubeconfigFor("demo", endpoints));
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfigFor("demo", endpoints));
  core = kc.makeApiClient(k8s.CoreV1Api);
  forbidding = new DemoServer({ cluster: new DemoCluster({ nodes: 1 }), readForbidden: ["pods/log"] });
  await forbidding.start();
});
afterAll(async () => {
  await server?.stop();
  await forbidding?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the demo cluster's pod logs, read by kubectl and the client-node", () => {
  it("a healthy plugin logs its login; kube-apiserver its start; there is no previous instance", async () => {
    clock = T0 + 5 * 60_000;
    const plugin = lines(await logs("kube-apiserver-master-1", "kms-plugin-1"));
    expect(plugin.map(json)).toEqual([expect.objectContaining({ level: "INFO", message: "auth.login", operation: "auth.login", status: "ok" })]);
    expect(lines(await logs("kube-apiserver-master-1", "kube-apiserver"))[0]).toMatch(/^I1128 09:00:00\.\d{6} {6}18 server\.go:\d+\] Version: v1\.35\.3$/);
    const previous = await kubectl(["logs", "-n", NS, "kube-apiserver-master-1", "-c", "kms-plugin-1", "--previous"]);
    expect(previous.code).not.toBe(0);
    expect(previous.stderr).toContain(
      'Error from server (BadRequest): previous terminated container "kms-plugin-1" in pod "kube-apiserver-master-1" not found',
    );
  });

  it("OpenBao sealed: the plugin's redacted WARN lines every probe, kube-apiserver's failed health checks every 10 s; --tail, --since, --limit-bytes, --timestamps", async () => {
    clock = T0 + 10 * 60_000;
    await setScenario(cluster, "openbao-sealed", true);
    clock += 5 * 60_000;
    const plugin = lines(await logs("kube-apiserver-master-2", "kms-plugin-1")).map(json);
    const sealed = plugin.filter((l) => l.message === "openbao.request");
    expect(sealed.length).toBe(10);
    expect(sealed[0]).toMatchObject({ level: "WARN", openbao_operation: "transit metadata read", status: "sealed", error_class: "sealed" });
    expect(plugin.filter((l) => l.message === "status.probe").every((l) => l.status === "sealed" && l.probe_kind === "metadata")).toBe(true);

    const kas = lines(await logs("kube-apiserver-master-2", "kube-apiserver"));
    const failed = kas.filter((l) => l.includes('"kms plugin failed health check probe"'));
    expect(failed.length).toBe(30 * 2);
    expect(failed[0]).toMatch(
      /^E1128 09:10:\d\d\.\d{6} {6}18 config\.go:\d+\] "kms plugin failed health check probe" err="kmsv2 Provider 1_secrets is not healthy, error: got unexpected healthz status: unhealthy" name="1_secrets"$/,
    );

    const tail = lines(await logs("kube-apiserver-master-2", "kube-apiserver", "--tail=3"));
    expect(tail).toEqual(kas.slice(-3));
    const stamped = lines(await logs("kube-apiserver-master-2", "kms-plugin-1", "--since=1m", "--timestamps"));
    expect(stamped.length).toBe(4);
    for (const line of stamped) {
      const at = Date.parse(line.split(" ")[0]);
      expect(at).toBeGreaterThanOrEqual(clock - 60_000);
      expect(json(line.slice(line.indexOf(" ") + 1)).message).toMatch(/openbao\.request|status\.probe/);
    }
    expect(Buffer.byteLength(await logs("kube-apiserver-master-2", "kube-apiserver", "--limit-bytes=100"))).toBe(100);
    await setScenario(cluster, "openbao-sealed", false);
  });

  it("a crash-looping plugin: its previous instance ends in the panic that killed it; its current one reclaimed the socket", async () => {
    clock = T0 + 20 * 60_000;
    await setScenario(cluster, "kms-plugin-crash-loop", true, { node: "master-1" });
    clock += 30_000;
    const pod = (await core.readNamespacedPod({ name: "kube-apiserver-master-1", namespace: NS })).status?.containerStatuses?.find(
      (s) => s.name === "kms-plugin-1",
    );
    expect(pod).toMatchObject({ restartCount: 12, lastState: { terminated: { exitCode: 2, reason: "Error" } } });
    const previous = lines(await logs("kube-apiserver-master-1", "kms-plugin-1", "--previous"));
    expect(previous.at(0)).toContain('"message":"socket.stale_removed"');
    expect(previous).toContain("panic: runtime error: invalid memory address or nil pointer dereference");
    expect(previous.at(-1)).toMatch(/^\t\/src\/internal\/status\/scheduler\.go:\d+ \+0x[0-9a-f]+$/);
    const current = lines(await logs("kube-apiserver-master-1", "kms-plugin-1")).map(json);
    expect(current.map((l) => l.message)).toEqual(["socket.stale_removed", "auth.login"]);
    // The client-node reads the same text.
    const read = await core.readNamespacedPodLog({ name: "kube-apiserver-master-1", namespace: NS, container: "kms-plugin-1", previous: true, tailLines: 2 });
    expect(lines(read)).toEqual(previous.slice(-2));
    await setScenario(cluster, "kms-plugin-crash-loop", false);
  });

  it("a plugin that cannot start: both reads show the instance that died, its error alone on the last line", async () => {
    await setScenario(cluster, "kms-socket-unavailable", true, { node: "master-0" });
    const current = lines(await logs("kube-apiserver-master-0", "kms-plugin-1"));
    expect(current.at(-1)).toBe("bind socket: socket parent directory unsafe: lstat /var/run/kmsplugin: no such file or directory");
    expect(lines(await logs("kube-apiserver-master-0", "kms-plugin-1", "--previous"))).toEqual(current);
    clock += 60_000;
    const kas = lines(await logs("kube-apiserver-master-0", "kube-apiserver", "--tail=3"));
    expect(kas[0]).toMatch(
      /\] "failed to create connection to unix socket" err="dial unix \/var\/run\/kmsplugin\/kms-1\.sock: connect: no such file or directory" addr="\/var\/run\/kmsplugin\/kms-1\.sock"$/,
    );
    await setScenario(cluster, "kms-socket-unavailable", false);
  });

  it("refuses as kube-apiserver and kubelet do: no container named, an unknown one, a negative tail, an unknown pod, no pods/log permission", async () => {
    const refusal = async (request: Promise<unknown>) => {
      const error = (await request.then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: number; body?: string };
      return { code: error?.code, status: JSON.parse(error?.body ?? "{}") as { reason?: string; message?: string; kind?: string } };
    };
    expect(await refusal(core.readNamespacedPodLog({ name: "kube-apiserver-master-0", namespace: NS }))).toEqual({
      code: 400,
      status: expect.objectContaining({
        kind: "Status",
        reason: "BadRequest",
        message: "a container name must be specified for pod kube-apiserver-master-0, choose one of: [kube-apiserver kms-plugin-1]",
      }),
    });
    expect(await refusal(core.readNamespacedPodLog({ name: "kube-apiserver-master-0", namespace: NS, container: "nope" }))).toMatchObject({
      code: 400,
      status: { message: "container nope is not valid for pod kube-apiserver-master-0" },
    });
    expect(
      await refusal(core.readNamespacedPodLog({ name: "kube-apiserver-master-0", namespace: NS, container: "kube-apiserver", tailLines: -1 })),
    ).toMatchObject({
      code: 422,
      status: {
        reason: "Invalid",
        message: 'PodLogOptions "kube-apiserver-master-0" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
      },
    });
    expect(await refusal(core.readNamespacedPodLog({ name: "kube-apiserver-master-9", namespace: NS, container: "kube-apiserver" }))).toMatchObject({
      code: 404,
      status: { reason: "NotFound", message: 'pods "kube-apiserver-master-9" not found' },
    });
    const kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfigFor("demo", forbidding.endpoints()));
    expect(
      await refusal(kc.makeApiClient(k8s.CoreV1Api).readNamespacedPodLog({ name: "kube-apiserver-master-0", namespace: NS, container: "kms-plugin-1" })),
    ).toMatchObject({
      code: 403,
      status: {
        reason: "Forbidden",
        message:
          'pods "kube-apiserver-master-0" is forbidden: User "system:serviceaccount:faultline:faultline-readonly" cannot get resource "pods/log" in API group "" in the namespace "openshift-kube-apiserver"',
      },
    });
  });
});
