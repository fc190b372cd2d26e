// The layering check of `npm test` (npm run check:layers): dependency-cruiser applies the rules in
// .dependency-cruiser.cjs (no file cycles, pure model and signals, no server code in components, no test code
// in the product), then this script checks that no two lib/ folders import each other, directly or round about.
// `--graph` also prints which lib folders each one imports (the data flow of docs/architecture.md).
import { execFileSync } from "node:child_process";

const cruise = () => {
  try {
    return execFileSync(
      "npx",
      ["depcruise", "lib", "app", "components", "scripts", "instrumentation.ts", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
      { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] },
    );
  } catch (error) {
    if (error.stdout) return error.stdout; // violations exit non-zero; the report is still on stdout
    throw error;
  }
};
const report = JSON.parse(cruise());

const folderOf = (path) => {
  if (!path || path.includes("node_modules") || /\.test\.tsx?$/.test(path)) return undefined;
  const m = /^lib\/([^/]+)\//.exec(path);
  if (m) return `lib/${m[1]}`;
  return /^lib\/[^/]+\.tsx?$/.test(path) ? path : undefined; // a file directly in lib/ stands alone
};
const edges = new Map();
for (const mod of report.modules) {
  const from = folderOf(mod.source);
  if (!from) continue;
  for (const dep of mod.dependencies) {
    const to = folderOf(dep.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, []);
    edges.get(from).get(to).push(`${mod.source} -> ${dep.resolved}`);
  }
}
const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();

// Tarjan's strongly connected components: every component of two or more folders is a cycle between folders.
let counter = 0;
const index = new Map(),
  low = new Map(),
  stack = [],
  onStack = new Set(),
  cycles = [];
const visit = (v) => {
  index.set(v, counter);
  low.set(v, counter);
  counter++;
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
};
for (const n of nodes) if (!index.has(n)) visit(n);

if (process.argv.includes("--graph")) {
  console.log("lib folders and the lib folders they import:");
  for (const n of nodes) console.log(`  ${n} -> ${[...(edges.get(n)?.keys() ?? [])].sort().join(", ") || "(nothing)"}`);
}
const violations = report.summary.violations;
for (const v of violations) console.error(`layering: ${v.rule.name}: ${v.from} -> ${v.cycle ? v.cycle.map((c) => c.name ?? c).join(" -> ") : v.to}`);
for (const c of cycles) {
  console.error(`layering: lib folders import each other: ${c.join(" <-> ")}`);
  for (const a of c) for (const b of c) if (a !== b) for (const f of (edges.get(a)?.get(b) ?? []).slice(0, 3)) console.error(`    ${f}`);
}
console.log(
  `layering: ${report.summary.totalCruised} modules, ${report.summary.totalDependenciesCruised} imports; ${violations.length} rule violations, ${cycles.length} cycles between lib folders`,
);
process.exit(violations.length + cycles.length > 0 ? 1 : 0);
