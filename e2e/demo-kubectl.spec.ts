import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { sameOrigin, shot } from "./helpers";

// The kubectl commands the Demo cluster page prints, run exactly as printed with Debian's kubectl
// (unpacked by npm test into .data/tools), against the demo cluster of the running server.

const KUBECTL = process.env.FAULTLINE_KUBECTL ?? path.resolve(".data/tools/kubernetes-client/usr/bin/kubectl");

/** Runs a printed command; `onStdout` hears its output as it comes (a watch's first row, say). */
function sh(command: string, onStdout?: (soFar: string) => void): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // "kubectl" in the printed command is Debian's: its folder comes first on PATH.
    const env = { ...process.env, PATH: `${path.dirname(KUBECTL)}:${process.env.PATH}`, HOME: path.resolve("test-results") };
    const child = execFile("bash", ["-c", command], { env, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    let soFar = "";
    if (onStdout) child.stdout?.on("data", (chunk) => onStdout((soFar += String(chunk))));
  });
}

test("the kubectl commands on the Demo cluster page work as printed", async ({ page, request }) => {
  expect(existsSync(KUBECTL), `Debian's kubectl is missing at ${KUBECTL}: npm test unpacks it (apt-get download kubernetes-client)`).toBe(true);
  await page.goto("/demo");
  const commands = await page.getByTestId("kubectl-command").locator("code").allTextContents();
  const [list, watch] = commands.filter((c) => c.startsWith("KUBECONFIG="));
  expect(list).toMatch(/^KUBECONFIG=\/\S+\/demo\.kubeconfig kubectl get nodes,kubeapiservers -o wide$/);
  await shot(page, "31-demo-kubectl-command");

  const listed = await sh(list);
  expect(listed.stderr).toBe("");
  expect(listed.stdout).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP/);
  expect(listed.stdout).toMatch(/\nnode\/master-0\s+Ready\s+control-plane,master\s/);
  expect(listed.stdout).toContain("kubeapiserver.operator.openshift.io/cluster");

  // The watch sees the reporters' write that an injected scenario makes at once (lib/demo/control.ts).
  // The scenario is injected once kubectl has listed (its first row is out), not after a guess at how long it takes to start.
  let firstRow: () => void = () => {};
  const first = new Promise<void>((resolve) => (firstRow = resolve));
  const watching = sh(`${watch} --request-timeout=8s`, (soFar) => /\ncluster\s/.test(soFar) && firstRow());
  await Promise.race([first, watching]);
  await request.post("/api/v1/demo/scenarios/openbao-sealed", sameOrigin({}));
  const watched = await watching;
  await request.delete("/api/v1/demo/scenarios/openbao-sealed", sameOrigin());
  const rows = watched.stdout.trim().split("\n");
  expect(rows[0]).toMatch(/^NAME\s+AGE$/);
  expect(rows.filter((r) => r.startsWith("cluster ")).length).toBeGreaterThanOrEqual(2);
});
