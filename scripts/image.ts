// npm run image: Faultline as an OCI image, built without a container engine (docs/deploy.md).
// Debian 12's root filesystem from Debian's packages (mmdebstrap), this machine's Node.js (Debian 12 ships 18, the
// app needs 20), the production node_modules from the lock file and the app with its Next.js build, as four
// layers (umoci), then an OCI archive (skopeo). The app comes from FAULTLINE_IMAGE_SOURCE (default: this checkout)
// and is built there first when its build is not current, as `npm start` would.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildIsCurrent } from "../lib/build-state";
import { IMAGE } from "./image-spec";

const root = process.cwd();
const source = path.resolve(process.env.FAULTLINE_IMAGE_SOURCE ?? root);
const out = path.join(root, ".data", "image");
const work = path.join(out, "build");
const fresh = process.argv.includes("--fresh");

function fail(message: string): never {
  console.error(`[image] ${message}`);
  process.exit(1);
}

function run(command: string, args: string[], cwd?: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.slice(0, 3).join(" ")} ... exited ${result.status}`);
}

const hash = (...parts: (string | Buffer)[]) =>
  parts
    .reduce((h, p) => h.update(p).update("\0"), createHash("sha256"))
    .digest("hex")
    .slice(0, 16);

function need(tool: string, pkg: string): void {
  if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) fail(`needs ${tool}: apt-get install ${pkg}`);
}

/** Debian 12 with what Node.js links against and the CA bundle; rebuilt only when its recipe changes (or --fresh). */
function rootfs(): string {
  const dir = path.join(work, "rootfs");
  const stamp = path.join(work, "rootfs.stamp");
  const args = [
    "--quiet",
    "--variant=essential",
    `--include=${IMAGE.debianPackages.join(",")}`,
    ...["man", "doc", "info", "locale", "lintian", "bug"].map((d) => `--dpkgopt=path-exclude=/usr/share/${d}/*`),
    "--dpkgopt=path-include=/usr/share/doc/*/copyright",
    IMAGE.suite,
    dir,
    ...IMAGE.mirrors,
  ];
  const key = hash(JSON.stringify(args));
  if (!fresh && existsSync(stamp) && readFileSync(stamp, "utf8") === key) {
    console.log(`[image] Debian ${IMAGE.suite} root filesystem: reused (${key}; --fresh rebuilds it)`);
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`[image] Debian ${IMAGE.suite} root filesystem with mmdebstrap (a few minutes)...`);
  run("mmdebstrap", args);
  // A container runtime mounts its own /dev; device nodes do not belong in a layer.
  for (const entry of readdirSync(path.join(dir, "dev"))) rmSync(path.join(dir, "dev", entry), { recursive: true, force: true });
  writeFileSync(stamp, key);
  return dir;
}

/** Node.js from this machine, pinned: the image runs what the tests ran. */
function nodeLayer(): string {
  const version = process.version.slice(1);
  if (version !== IMAGE.node) {
    fail(`the image pins Node.js ${IMAGE.node}; this machine runs ${version}. Use ${IMAGE.node}, or change IMAGE.node in scripts/image-spec.ts after testing`);
  }
  const dir = path.join(work, "node");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "usr/local/bin"), { recursive: true });
  copyFileSync(process.execPath, path.join(dir, "usr/local/bin/node"));
  chmodSync(path.join(dir, "usr/local/bin/node"), 0o755);
  // The fixed user (uid and gid 10001) the manifests run as; its data directory is a volume.
  const etc = path.join(dir, "etc");
  mkdirSync(etc);
  const rootfsEtc = path.join(work, "rootfs", "etc");
  writeFileSync(
    path.join(etc, "passwd"),
    `${readFileSync(path.join(rootfsEtc, "passwd"), "utf8")}faultline:x:${IMAGE.uid}:${IMAGE.uid}::/nonexistent:/usr/sbin/nologin\n`,
  );
  writeFileSync(path.join(etc, "group"), `${readFileSync(path.join(rootfsEtc, "group"), "utf8")}faultline:x:${IMAGE.uid}:\n`);
  const data = path.join(dir, IMAGE.dataDir);
  mkdirSync(data, { recursive: true });
  chownSync(data, IMAGE.uid, IMAGE.uid);
  chmodSync(data, 0o700);
  return dir;
}

/** `npm ci` of the production dependencies, reused while the lock file is unchanged. */
function modules(): string {
  const dir = path.join(work, "modules");
  const stamp = path.join(work, "modules.stamp");
  const lock = readFileSync(path.join(source, "package-lock.json"));
  const manifest = readFileSync(path.join(source, "package.json"));
  const key = hash(lock, manifest, IMAGE.node);
  if (!fresh && existsSync(stamp) && readFileSync(stamp, "utf8") === key) {
    console.log(`[image] production node_modules: reused (${key})`);
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "app"), { recursive: true });
  writeFileSync(path.join(dir, "app", "package.json"), manifest);
  writeFileSync(path.join(dir, "app", "package-lock.json"), lock);
  console.log("[image] production node_modules with npm ci (a few minutes)...");
  // --legacy-peer-deps: npm would otherwise add optional peers that no production path loads (the prisma CLI and
  // its studio, typescript, playwright: a third of the size). The root's postinstall (prisma generate) needs the
  // CLI: the generated client comes with the app instead, so scripts are run only for the packages that need theirs.
  const cwd = path.join(dir, "app");
  run("npm", ["ci", "--omit=dev", "--legacy-peer-deps", "--ignore-scripts", "--no-audit", "--no-fund"], cwd);
  const withScripts = IMAGE.installScripts.filter((name) => existsSync(path.join(cwd, "node_modules", name)));
  run("npm", ["rebuild", ...withScripts], cwd);
  rmSync(path.join(cwd, "package.json"));
  rmSync(path.join(cwd, "package-lock.json"));
  writeFileSync(stamp, key);
  return dir;
}

/** What `npm start` reads: the sources (tsx runs scripts/start.ts; the build check hashes them), the build, the client. */
function appLayer(): string {
  const dir = path.join(work, "app");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "app"), { recursive: true });
  const present = IMAGE.appFiles.filter((entry) => existsSync(path.join(source, entry)));
  // Owned by root and not writable by the app's user, on a read-only root filesystem or not.
  run("bash", [
    "-c",
    `set -euo pipefail; s=$1 d=$2; shift 2; tar -C "$s" -cf - --owner=0 --group=0 --mode=u+rwX,go+rX,go-w --exclude='*.test.ts' --exclude='*.test.tsx' --exclude=.next/cache "$@" | tar -C "$d" -xf -`,
    "copy",
    source,
    path.join(dir, "app"),
    ...present,
  ]);
  return dir;
}

function layerSizes(layout: string): number {
  const blobs = path.join(layout, "blobs", "sha256");
  return readdirSync(blobs).reduce((sum, blob) => sum + statSync(path.join(blobs, blob)).size, 0);
}

function main(): void {
  if (process.getuid?.() !== 0) fail("must run as root: mmdebstrap builds the root filesystem with chroot and the layers keep root ownership");
  need("mmdebstrap", "mmdebstrap");
  need("umoci", "umoci");
  need("skopeo", "skopeo");
  if (!existsSync(path.join(source, "lib/db/generated/client.ts")))
    fail(`${source} has no Prisma client (lib/db/generated): run npm ci (or npm run prisma:generate) there`);
  if (!buildIsCurrent(source)) {
    console.log(`[image] ${source}: the build is not current, building it (npm run build)...`);
    const built = spawnSync("npm", ["run", "build"], { cwd: source, stdio: "inherit" });
    if (built.status !== 0) fail("npm run build failed; see the output above");
  }
  const version = (JSON.parse(readFileSync(path.join(source, "package.json"), "utf8")) as { version: string }).version;
  const revision = spawnSync("git", ["-C", source, "rev-parse", "--short=12", "HEAD"], { encoding: "utf8" }).stdout.trim() || "unknown";
  const migrations = readdirSync(path.join(source, "prisma/migrations"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  mkdirSync(work, { recursive: true });

  const base = rootfs();
  const node = nodeLayer();
  const deps = modules();
  const app = appLayer();

  const layout = path.join(out, "oci");
  rmSync(layout, { recursive: true, force: true });
  const image = `${layout}:${version}`;
  console.log("[image] layers with umoci...");
  run("umoci", ["init", "--layout", layout]);
  run("umoci", ["new", "--image", image]);
  run("umoci", ["insert", "--image", image, "--history.created_by", `mmdebstrap --variant=essential ${IMAGE.suite}`, base, "/"]);
  run("umoci", ["insert", "--image", image, "--history.created_by", `node ${IMAGE.node} and user ${IMAGE.uid}`, node, "/"]);
  run("umoci", ["insert", "--image", image, "--history.created_by", "npm ci --omit=dev", path.join(deps, "app"), IMAGE.workdir]);
  run("umoci", ["insert", "--image", image, "--history.created_by", `faultline ${version} (${revision})`, path.join(app, "app"), IMAGE.workdir]);
  const labels = {
    "org.opencontainers.image.title": "faultline",
    "org.opencontainers.image.version": version,
    "org.opencontainers.image.revision": revision,
    "org.opencontainers.image.base.name": `debian:${IMAGE.suite}`,
    "org.faultline.node.version": IMAGE.node,
    // The newest migration this image applies at start: an older image refuses a database past its own (docs/deploy.md).
    "org.faultline.migrations.latest": migrations.at(-1) ?? "",
  };
  run("umoci", [
    "config",
    "--image",
    image,
    "--config.user",
    `${IMAGE.uid}:${IMAGE.uid}`,
    "--config.workingdir",
    IMAGE.workdir,
    ...IMAGE.entrypoint.flatMap((arg) => ["--config.entrypoint", arg]),
    ...Object.entries(IMAGE.env).flatMap(([k, v]) => ["--config.env", `${k}=${v}`]),
    "--config.exposedports",
    "3000/tcp",
    "--config.volume",
    IMAGE.dataDir,
    "--config.volume",
    "/tmp",
    "--config.stopsignal",
    "SIGTERM",
    ...Object.entries(labels).flatMap(([k, v]) => ["--config.label", `${k}=${v}`]),
  ]);
  run("umoci", ["gc", "--layout", layout]);

  const archive = path.join(out, "faultline-oci.tar");
  rmSync(archive, { force: true });
  run("skopeo", ["copy", "--quiet", `oci:${image}`, `oci-archive:${archive}:faultline:${version}`]);
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `[image] faultline:${version} (${revision}), Node.js ${IMAGE.node}, user ${IMAGE.uid}, newest migration ${labels["org.faultline.migrations.latest"]}`,
  );
  console.log(
    `[image] OCI layout ${path.relative(root, layout)} (${mib(layerSizes(layout))} of blobs), archive ${path.relative(root, archive)}: ${mib(statSync(archive).size)}`,
  );
}

main();
