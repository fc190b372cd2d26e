// The layering check of `npm test` (npm run check:layers): dependency-cruiser applies the rules in
// .dependency-cruiser.cjs (no file cycles, pure model and signals, no server code in components, no test code
// in the product, each lib folder imports only what its MAY_IMPORT row lists), then this script checks that every
// lib folder and lone lib file has such a row and that no two lib/ folders import each other, directly or round about.
// `--graph` also prints which lib folders each one imports (the data flow of docs/architecture.md).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";

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
// A folder or lone file without a MAY_IMPORT row would import anything unchecked.
const tableRules = createRequire(import.meta.url)("../.dependency-cruiser.cjs").forbidden.filter((r) => r.name.endsWith("-may-import"));
const unlisted = readdirSync("lib", { withFileTypes: true })
  .filter((d) => d.isDirectory() || (/\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name)))
  .map((d) => (d.isDirectory() ? `lib/${d.name}/` : `lib/${d.name}`))
  .filter((entry) => !tableRules.some((r) => new RegExp(r.from.path).test(entry.endsWith("/") ? `${entry}x.ts` : entry)));
for (const entry of unlisted) console.error(`layering: ${entry} has no row in MAY_IMPORT (.dependency-cruiser.cjs; docs/architecture.md's stages table)`);

const violations = report.summary.violations;
for (const v of violations) console.error(`layering: ${v.rule.name}: ${v.from} -> ${v.cycle ? v.cycle.map((c) => c.name ?? c).join(" -> ") : v.to}`);
for (const c of cycles) {
  console.error(`layering: lib folders import each other: ${c.join(" <-> ")}`);
  for (const a of c) for (const b of c) if (a !== b) for (const f of (edges.get(a)?.get(b) ?? []).slice(0, 3)) console.error(`    ${f}`);
}
console.log(
  `layering: ${report.summary.totalCruised} modules, ${report.summary.totalDependenciesCruised} imports; ${violations.length} rule violations, ${cycles.length} cycles between lib folders, ${unlisted.length} lib entries without a MAY_IMPORT row`,
);
process.exit(violations.length + cycles.length + unlisted.length > 0 ? 1 : 0);
