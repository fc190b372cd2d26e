// Layering rules for `npm test` (scripts/check-layers.mjs runs dependency-cruiser with this file and then
// checks that no two lib/ folders import each other, directly or round about). docs/architecture.md says why.
const IO = "^(node:)?(fs|fs/promises|net|http|https|http2|tls|dns|child_process|worker_threads|dgram)$";
const SERVER_ONLY = ["^server-only$", "^lib/db/", "^lib/monitor/", "^lib/store/", "^lib/sources/(kube|probes|prometheus)/", "^node:"];

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
        ],
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
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^lib/db/generated/", "\\.next/", "^node_modules/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
