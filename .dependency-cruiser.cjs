// Layering rules for `npm test` (scripts/check-layers.mjs runs dependency-cruiser with this file and then
// checks that no two lib/ folders import each other, directly or round about). docs/architecture.md says why.
const IO = "^(node:)?(fs|fs/promises|net|http|https|http2|tls|dns|child_process|worker_threads|dgram)$";
const SERVER_ONLY = ["^server-only$", "^lib/db/", "^lib/monitor/", "^lib/store/", "^lib/sources/(kube|probes|prometheus|beacon|logs)/", "^node:"];

// Which lib/ folders and lone lib/ files each one may import (its own tests may import anything): the "may import"
// column of docs/architecture.md's stages table, which must say the same. A lone file counts as its own folder.
const MAY_IMPORT = {
  // The live pipeline, in the order the data flows.
  "lib/sources": ["lib/text", "lib/clusters", "lib/free-port.ts"],
  "lib/model": ["lib/sources"],
  "lib/signals": ["lib/model", "lib/sources", "lib/text"],
  "lib/store": ["lib/signals", "lib/sources", "lib/text"],
  "lib/incidents": [
    "lib/store",
    "lib/signals",
    "lib/live",
    "lib/notifications",
    "lib/diagnosis",
    "lib/catalog",
    "lib/runbooks",
    "lib/content",
    "lib/db",
    "lib/text",
    "lib/errors.ts",
    "lib/incident-rules-config.ts",
    "lib/process-slot.ts",
  ],
  "lib/notifications": ["lib/db", "lib/env.ts", "lib/notify-config.ts", "lib/catalog", "lib/text", "lib/live", "lib/process-slot.ts"],
  "lib/live": ["lib/signals", "lib/model", "lib/process-slot.ts"],
  "lib/monitor": [
    "lib/sources",
    "lib/model",
    "lib/signals",
    "lib/store",
    "lib/incidents",
    "lib/live",
    "lib/exporter",
    "lib/db",
    "lib/text",
    "lib/env.ts",
    "lib/errors.ts",
    "lib/process-slot.ts",
    "lib/keep-unchanged.ts",
  ],
  "lib/exporter": ["lib/metrics.ts", "lib/live", "lib/db", "lib/signals", "lib/catalog", "lib/incidents", "lib/text", "lib/process-slot.ts"],
  "lib/fleet": ["lib/live", "lib/signals", "lib/db", "lib/env.ts", "lib/process-slot.ts"],
  // The web.
  "lib/http": ["lib/errors.ts", "lib/text", "lib/metrics.ts", "lib/host-entry.ts", "lib/auth", "lib/process-slot.ts"],
  "lib/auth": ["lib/db", "lib/env.ts", "lib/auth-config.ts", "lib/text", "lib/errors.ts", "lib/process-slot.ts", "lib/metrics.ts"],
  "lib/views": [
    "lib/fleet",
    "lib/incidents",
    "lib/live",
    "lib/signals",
    "lib/catalog",
    "lib/runbooks",
    "lib/blast-radius",
    "lib/demo",
    "lib/db",
    "lib/env.ts",
    "lib/errors.ts",
    "lib/incident-rules-config.ts",
  ],
  // The content, and what reads it.
  "lib/content": [],
  "lib/runbooks": ["lib/content"],
  "lib/blast-radius": ["lib/content", "lib/runbooks"],
  "lib/catalog": ["lib/content", "lib/runbooks", "lib/blast-radius", "lib/errors.ts"],
  "lib/diagnosis": ["lib/catalog", "lib/runbooks"],
  "lib/clusters": ["lib/content"],
  // Below every stage, or beside them.
  "lib/text": [],
  "lib/db": ["lib/catalog", "lib/env.ts", "lib/free-port.ts", "lib/process-slot.ts"],
  "lib/demo": ["lib/sources", "lib/env.ts", "lib/errors.ts", "lib/process-slot.ts"],
  "lib/startup.ts": ["lib/db", "lib/monitor", "lib/notifications", "lib/demo", "lib/catalog", "lib/clusters", "lib/fleet", "lib/env.ts", "lib/auth"],
  "lib/env.ts": ["lib/auth-config.ts", "lib/notify-config.ts", "lib/incident-rules-config.ts", "lib/host-entry.ts", "lib/json-var.ts"],
  "lib/auth-config.ts": ["lib/json-var.ts"],
  "lib/metrics.ts": ["lib/process-slot.ts"],
  "lib/after-paint.ts": [],
  "lib/build-state.ts": [],
  "lib/child-env.ts": [],
  "lib/errors.ts": [],
  "lib/free-port.ts": [],
  "lib/host-entry.ts": [],
  "lib/incident-rules-config.ts": [],
  "lib/json-var.ts": [],
  "lib/keep-unchanged.ts": [],
  "lib/notify-config.ts": [],
  "lib/process-slot.ts": [],
};

const pathOf = (entry) => (/\.tsx?$/.test(entry) ? `^${entry.replace(/\./g, "\\.")}$` : `^${entry}/`);
const mayImport = Object.entries(MAY_IMPORT).map(([entry, allowed]) => ({
  name: `${entry.slice("lib/".length)}-may-import`,
  comment: `${entry} imports from lib/ ${allowed.length > 0 ? `only ${allowed.join(", ")}` : "nothing"} (docs/architecture.md, "The stages").`,
  severity: "error",
  from: { path: pathOf(entry), pathNot: "\\.test\\.tsx?$" },
  to: { path: "^lib/", pathNot: [pathOf(entry), ...allowed.map(pathOf)] },
}));

module.exports = {
  forbidden: [
    {
      name: "no-file-cycles",
      comment: "No two files import each other, directly or round about (types included).",
      severity: "error",
      from: { path: "^(lib|app|components)/", pathNot: "^lib/db/generated/" },
      to: { circular: true },
    },
    {
      name: "model-and-signals-are-pure",
      comment: "The KMS model and signal derivation take observations and return values: no I/O, no database, no server-only code.",
      severity: "error",
      from: { path: "^lib/(model|signals)/" },
      to: {
        path: [
          IO,
          "^server-only$",
          "^lib/db/",
          "^lib/monitor/",
          "^lib/store/",
          "^lib/incidents/",
          "^lib/live/",
          "^lib/http/",
          "^lib/sources/(kube|probes|prometheus)/(client|watch|watch-stream|process|openbao-http|probes)",
          "^lib/sources/beacon/probe-",
        ],
      },
    },
    {
      name: "signals-take-typed-readings",
      comment:
        "Each source reads its own values (lib/sources/readings.ts applies its reader): lib/signals takes the typed readings and calls no reader or parser of lib/sources.",
      severity: "error",
      from: { path: "^lib/signals/", pathNot: "\\.test\\.tsx?$" },
      to: {
        path: ["^lib/sources/readings\\.ts$", "^lib/sources/[^/]+/(read|parse)-"],
        pathNot: "/read-problem\\.ts$", // what a refused object says, not a reader
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "components-import-no-server-code",
      comment: "Client and shared components never pull in server-only modules, the database or Node's I/O.",
      severity: "error",
      from: { path: "^components/", pathNot: "\\.test\\.tsx?$" },
      to: { path: SERVER_ONLY },
    },
    {
      name: "lib-imports-no-web",
      comment: "lib/ is below the web: it never imports app/ or components/.",
      severity: "error",
      from: { path: "^lib/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "no-test-code-in-product",
      comment: "Test helpers live in test/; product code never imports them.",
      severity: "error",
      from: { path: "^(lib|app|components)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: ["^test/", "\\.test\\.tsx?$", "^e2e/"] },
    },
    ...mayImport,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^lib/db/generated/", "\\.next/", "^node_modules/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
