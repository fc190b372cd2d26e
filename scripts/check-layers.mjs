// Reads dependency-cruiser's JSON (stdin) and prints the import graph between lib/ folders: each
// folder's dependencies and every cycle between folders (strongly connected components). Used for
// the architecture notes: `npx depcruise lib app components --output-type json | node scripts/folder-graph.mjs`.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(0, "utf8"));
const folderOf = (path) => {
  if (!path || path.includes("node_modules") || /\.test\.tsx?$/.test(path)) return undefined;
  const m = /^lib\/([^/]+)\//.exec(path);
  if (m) return `lib/${m[1]}`;
  if (/^lib\/[^/]+$/.test(path)) return "lib/(root)";
  return undefined;
};
const edges = new Map();
for (const mod of report.modules) {
  const from = folderOf(mod.source);
  if (!from) continue;
  for (const dep of mod.dependencies) {
    const to = folderOf(dep.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const files = edges.get(from);
    if (!files.has(to)) files.set(to, []);
    files.get(to).push(`${mod.source} -> ${dep.resolved}`);
  }
}
const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
// Tarjan's strongly connected components.
let index = 0;
const idx = new Map(), low = new Map(), stack = [], on = new Set(), sccs = [];
const visit = (v) => {
  idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = []; let w;
    do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
    if (c.length > 1) sccs.push(c.sort());
  }
};
for (const n of nodes) if (!idx.has(n)) visit(n);
console.log("lib folders and what they import:");
for (const n of nodes) console.log(`  ${n} -> ${[...(edges.get(n)?.keys() ?? [])].sort().join(", ") || "(nothing)"}`);
console.log(`\ncycles between lib folders: ${sccs.length}`);
for (const c of sccs) {
  console.log(`  ${c.join(" <-> ")}`);
  for (const a of c) for (const b of c) if (a !== b) for (const f of (edges.get(a)?.get(b) ?? []).slice(0, 3)) console.log(`    ${f}`);
}
