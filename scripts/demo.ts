// npm run demo: the simulated cluster, for trying Faultline and for game days.
//   npm run demo -- [--nodes 3] [--plugins 1] [--design condition|typed] [--interval 30s] [--clusters 1]
//                   [--port 0] [--scenario id[,id]] [--node master-1]      start simulated cluster(s)
//                   [--clusters-file F] [--label key=value ...]            and a clusters file that watches them
//   npm run demo -- list [--cluster demo]                                  scenarios and which are on
//   npm run demo -- inject <id> [--node master-1] [--variant v] [--cluster demo]
//   npm run demo -- clear <id> [--cluster demo]
// --dir (default .data/demo) is where kubeconfigs, CAs and tokens go, and where list, inject and clear look.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { Agent, fetch } from "undici";
import { ClusterLabels } from "../lib/clusters/config";
import { setScenario } from "../lib/demo/cluster/scenarios";
import { startSimulatedCluster, type RunningDemo } from "../lib/demo/cluster/start";
import { makeServingTls } from "../lib/demo/cluster/tls";
import { writeFleetFile } from "../lib/demo/fleet-file";

/**
 * A fleet test wants 100 clusters; each simulated one is an HTTPS server and its reporters in this process, and the
 * Faultline watching them holds about a dozen watches and five probes per poll for each.
 */
const MAX_CLUSTERS = 200;

function fail(message: string): never {
  console.error(`demo: ${message}`);
  process.exit(2);
}

function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) fail(`--interval must look like 30s, 1s or 500ms, not "${text}"`);
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? "s"] ?? 1000);
}

function int(text: string, name: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) fail(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return n;
}

/** --label key=value, as a clusters file's labels take them (lib/clusters/config.ts). */
function parseLabels(given: string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const text of given) {
    const eq = text.indexOf("=");
    if (eq < 1) fail(`--label must look like key=value, not "${text}"`);
    labels[text.slice(0, eq)] = text.slice(eq + 1);
  }
  const checked = ClusterLabels.safeParse(labels);
  if (!checked.success) fail(`--label ${checked.error.issues.map((i) => `${i.path.join(".") || "labels"}: ${i.message}`).join("; ")}`);
  return labels;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    nodes: { type: "string", default: "3" },
    plugins: { type: "string", default: "1" },
    design: { type: "string", default: "condition" },
    interval: { type: "string", default: "30s" },
    clusters: { type: "string", default: "1" },
    port: { type: "string", default: "0" },
    scenario: { type: "string" },
    node: { type: "string" },
    variant: { type: "string" },
    cluster: { type: "string", default: "demo" },
    dir: { type: "string", default: path.join(".data", "demo") },
    "clusters-file": { type: "string" },
    label: { type: "string", multiple: true },
  },
});
const DIR = path.resolve(values.dir!);

async function control(verb: "inject" | "clear" | "list", id?: string): Promise<void> {
  let info: { url: string; adminToken: string; caFile?: string };
  try {
    info = JSON.parse(readFileSync(path.join(DIR, `${values.cluster}.json`), "utf8"));
  } catch {
    fail(`no running simulated cluster "${values.cluster}" (start one with: npm run demo)`);
  }
  const query = new URLSearchParams();
  if (values.node) query.set("node", values.node);
  if (values.variant) query.set("variant", values.variant);
  const url = verb === "list" ? `${info.url}/demo/v1/scenarios` : `${info.url}/demo/v1/scenarios/${id}?${query}`;
  // The simulator serves TLS with its own CA, written beside the kubeconfig.
  const ca = info.caFile ? readFileSync(info.caFile, "utf8") : undefined;
  const dispatcher = new Agent({ connect: ca ? { ca } : {} });
  const response = await fetch(url, {
    method: verb === "list" ? "GET" : verb === "inject" ? "POST" : "DELETE",
    headers: { Authorization: `Bearer ${info.adminToken}` },
    dispatcher,
  }).catch(() => fail(`cannot reach the simulated cluster at ${info.url}; is npm run demo still running?`));
  const body = (await response.json()) as {
    error?: string;
    scenarios?: { id: string; title: string; active: boolean; oneShot?: boolean; node?: string; catalog: string | null }[];
  };
  if (!response.ok) fail(body.error ?? `HTTP ${response.status}`);
  for (const s of body.scenarios ?? []) {
    // A one-off (a watch reset, a restart) has happened by now and is never "on".
    const done = verb === "inject" && s.oneShot && s.id === id;
    if (verb === "list" || s.active || done)
      console.log(`${s.active ? "ON " : done ? "DID" : "   "} ${s.id.padEnd(46)} ${s.title}${s.node ? ` (${s.node})` : ""}`);
  }
}

async function main(): Promise<void> {
  const verb = positionals[0];
  if (verb === "list") return control("list");
  if (verb === "inject" || verb === "clear") {
    if (!positionals[1]) fail(`${verb} needs a scenario id (npm run demo -- list shows them)`);
    return control(verb, positionals[1]);
  }
  if (verb) fail(`unknown command "${verb}"; use list, inject <id> or clear <id>, or no command to start`);
  const design = values.design;
  if (design !== "condition" && design !== "typed") fail(`--design must be condition or typed, not "${design}"`);
  const count = int(values.clusters!, "clusters", 1, MAX_CLUSTERS);
  const nodes = int(values.nodes!, "nodes", 1, 5000);
  const intervalMs = duration(values.interval!);
  const labels = parseLabels(values.label ?? []);
  // Names sort as they count (demo-007 before demo-010), and all must be names a clusters file takes.
  const width = String(count).length;
  const nameOf = (i: number) => (count === 1 ? values.cluster! : `${values.cluster}-${String(i + 1).padStart(width, "0")}`);
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(nameOf(count - 1)))
    fail(`--cluster must be a lowercase name (letters, digits, hyphens) that leaves room for "-${"9".repeat(width)}", not "${values.cluster}"`);
  // One CA and serving certificate for the whole run: two RSA keys per cluster would take most of a minute at 100.
  const tls = makeServingTls(values.cluster!);
  const started: RunningDemo[] = [];
  for (let i = 0; i < count; i++) {
    const name = nameOf(i);
    const sim = await startSimulatedCluster({
      name,
      nodes,
      pluginsPerNode: int(values.plugins!, "plugins", 1, 3),
      design,
      intervalMs,
      port: i === 0 ? int(values.port!, "port", 0, 65535) : 0,
      dir: DIR,
      tls,
    });
    for (const id of (values.scenario ?? "").split(",").filter(Boolean)) {
      try {
        await setScenario(sim.server.cluster, id, true, { node: values.node, variant: values.variant });
      } catch (error) {
        await sim.server.stop();
        fail((error as Error).message);
      }
    }
    started.push(sim);
    console.log(
      `simulated cluster "${name}": ${sim.endpoints.url} (${nodes} nodes, ${design} design); kubeconfig ${path.relative(process.cwd(), sim.kubeconfigPath)}`,
    );
  }
  if (values["clusters-file"]) {
    const file = path.resolve(values["clusters-file"]);
    await writeFleetFile(file, started, { intervalMs, labels });
    console.log(`clusters file for Faultline: ${file} (${count} cluster${count === 1 ? "" : "s"}); FAULTLINE_CLUSTERS_FILE=${file} npm start`);
  }
  console.log(`Stop with Ctrl-C. Inject and clear scenarios with: npm run demo -- inject <id> / clear <id>${count > 1 ? ` --cluster ${nameOf(0)}` : ""}`);
  const stop = () => void Promise.all(started.map((s) => s.server.stop())).finally(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
