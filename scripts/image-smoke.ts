// npm run image:smoke: runs the image `npm run image` made as a container runtime would, without one, and checks
// it serves. Its root filesystem (umoci unpack) is mounted read-only in a mount and PID namespace of its own, with
// tmpfs at /tmp and the data directory only, and its entrypoint runs as the image's user with no capabilities and
// no new privileges, against a real PostgreSQL (the embedded one the tests use) on loopback. Passes when
// /api/readyz answers ready, pages render, nothing met the read-only root, and SIGTERM stops it cleanly.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { freePort } from "../lib/free-port";
import { IMAGE } from "./image-spec";

const root = process.cwd();
const out = path.join(root, ".data", "image");
const layout = path.join(out, "oci");
const READY_WITHIN_MS = 300_000;
const STOP_WITHIN_MS = 15_000;

class SmokeFailure extends Error {}

function fail(message: string): never {
  throw new SmokeFailure(message);
}

interface RuntimeSpec {
  process: { args: string[]; env: string[]; cwd: string; user: { uid: number; gid: number } };
}

// Mounts as a runtime makes them, then the entrypoint. Runs as root inside `unshare --mount --pid`.
const CONTAINER = `set -eu
R=$1; DATA=$2; U=$3; G=$4; CWD=$5; shift 5
mount --bind "$R" "$R"
mount -o remount,bind,ro "$R"
mount -t proc -o nosuid,nodev,noexec proc "$R/proc"
mount -t tmpfs -o mode=0755,nosuid tmpfs "$R/dev"
for d in null zero full random urandom; do touch "$R/dev/$d"; mount --bind "/dev/$d" "$R/dev/$d"; done
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/tmp"
mount -t tmpfs -o "mode=0700,uid=$U,gid=$G,nosuid,nodev" tmpfs "$R$DATA"
exec /usr/sbin/chroot "$R" /usr/bin/setpriv --reuid="$U" --regid="$G" --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all -- /usr/bin/env -C "$CWD" -- "$@"`;

/** The pid and uid of the process whose root directory is the unpacked root filesystem. */
function containerProcess(rootfs: string): { pid: number; uid: number } | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/root`) !== rootfs) continue;
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      return { pid: Number(entry), uid };
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

async function get(base: string, route: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${base}${route}`, { redirect: "manual" });
  return { status: response.status, body: await response.text() };
}

async function main(): Promise<void> {
  if (process.getuid?.() !== 0) fail("must run as root (namespaces, mounts, chroot)");
  if (!existsSync(path.join(layout, "index.json"))) fail(`no image at ${path.relative(root, layout)}: run npm run image first`);
  const index = JSON.parse(readFileSync(path.join(layout, "index.json"), "utf8")) as { manifests: { annotations?: Record<string, string> }[] };
  const tag = index.manifests[0]?.annotations?.["org.opencontainers.image.ref.name"];
  if (!tag) fail("the OCI layout has no tagged image");
  const archive = path.join(out, "faultline-oci.tar");
  if (existsSync(archive)) console.log(`[smoke] image faultline:${tag}, archive ${(statSync(archive).size / 2 ** 20).toFixed(1)} MiB`);

  const scratch = mkdtempSync(path.join(out, "smoke-"));
  chmodSync(scratch, 0o711); // PostgreSQL runs as "postgres" when started by root, and must reach its folder
  const bundle = path.join(scratch, "bundle");
  const pgDir = path.join(scratch, "pg");
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let container: ChildProcess | undefined;
  const log: string[] = [];
  try {
    const unpacked = spawnSync("umoci", ["unpack", "--image", `${layout}:${tag}`, bundle], { stdio: ["ignore", "ignore", "inherit"] });
    if (unpacked.status !== 0) fail("umoci unpack failed");
    // What the image's own config says to run, as a runtime reads it (umoci writes the OCI runtime spec).
    const spec = JSON.parse(readFileSync(path.join(bundle, "config.json"), "utf8")) as RuntimeSpec;
    const rootfs = path.join(bundle, "rootfs");

    pg = await startEmbeddedPostgres(pgDir, () => undefined);
    const port = await freePort();
    const env: Record<string, string> = Object.fromEntries(
      spec.process.env.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
    );
    // HOST stays the loopback default: the container shares this machine's network, as PostgreSQL does.
    Object.assign(env, { DATABASE_URL: pg.url, PORT: String(port) });
    const { uid, gid } = spec.process.user;
    const data = env.FAULTLINE_DATA_DIR ?? IMAGE.dataDir;

    const began = Date.now();
    const child = spawn(
      "unshare",
      [
        "--mount",
        "--pid",
        "--fork",
        "--kill-child",
        "--",
        "sh",
        "-c",
        CONTAINER,
        "container",
        rootfs,
        data,
        String(uid),
        String(gid),
        spec.process.cwd,
        ...spec.process.args,
      ],
      { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] },
    );
    container = child;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const ready = new Promise<void>((resolve, reject) => {
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on("line", (line) => {
          log.push(line);
          if (line.includes("[faultline] ready on")) resolve();
        });
      }
      void exited.then((code) => reject(new Error(`the container exited (${code}) before it was ready`)));
      setTimeout(() => reject(new Error(`not ready within ${READY_WITHIN_MS / 1000} s`)), READY_WITHIN_MS).unref();
    });
    try {
      await ready;
    } catch (error) {
      console.error(log.slice(-40).join("\n"));
      fail((error as Error).message);
    }
    // Then ready as a readiness probe sees it: polled, as the kubelet does, until the replica knows its role too.
    const probeUntil = Date.now() + READY_WITHIN_MS;
    for (;;) {
      const answer = await get(`http://127.0.0.1:${port}`, "/api/readyz").catch(() => ({ status: 0, body: "" }));
      if (answer.status === 200) break;
      if (Date.now() > probeUntil) {
        console.error(log.slice(-40).join("\n"));
        fail(`GET /api/readyz did not answer 200 within ${READY_WITHIN_MS / 1000} s: ${answer.status} ${answer.body.slice(0, 300)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const readyAfter = (Date.now() - began) / 1000;
    const proc = containerProcess(rootfs);
    if (!proc) fail("no process runs in the unpacked root filesystem");
    if (proc.uid !== IMAGE.uid) fail(`the server runs as uid ${proc.uid}, not the image's ${IMAGE.uid}`);
    // The root as the server sees it (the last mount on its "/"): read-only, or the run proves nothing.
    const rootMount = readFileSync(`/proc/${proc.pid}/mountinfo`, "utf8")
      .split("\n")
      .filter((line) => line.split(" ")[4] === "/")
      .at(-1);
    if (!rootMount?.split(" ")[5].split(",").includes("ro")) fail(`the server's root is not mounted read-only: ${rootMount}`);

    const base = `http://127.0.0.1:${port}`;
    const checks: [string, (r: { status: number; body: string }) => boolean][] = [
      ["/api/healthz", (r) => r.status === 200],
      ["/api/readyz", (r) => r.status === 200 && (JSON.parse(r.body) as { ready: boolean }).ready],
      ["/catalog", (r) => r.status === 200 && r.body.includes("</html>")],
      ["/incidents", (r) => r.status === 200],
      ["/api/v1/clusters", (r) => r.status === 200],
    ];
    for (const [route, ok] of checks) {
      const answer = await get(base, route);
      console.log(`[smoke] GET ${route}: ${answer.status}${route === "/api/readyz" ? ` ${answer.body}` : ""}`);
      if (!ok(answer)) fail(`GET ${route} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    }

    process.kill(proc.pid, "SIGTERM");
    const stopBegan = Date.now();
    const code = await Promise.race([exited, new Promise<"late">((r) => setTimeout(() => r("late"), STOP_WITHIN_MS).unref())]);
    if (code === "late") fail(`still running ${STOP_WITHIN_MS / 1000} s after SIGTERM`);
    const stopped = (Date.now() - stopBegan) / 1000;
    const readOnlyHits = log.filter((line) => /EROFS|read-only file system|EACCES/i.test(line));
    if (readOnlyHits.length > 0) fail(`the server met the read-only root or a permission: ${readOnlyHits.slice(0, 5).join(" | ")}`);
    if (code !== 0) fail(`exited ${code} after SIGTERM`);
    console.log(log.join("\n"));
    console.log(
      `[smoke] passed: ready in ${readyAfter.toFixed(1)} s as uid ${proc.uid} on a read-only root, /api/readyz 200, stopped ${stopped.toFixed(1)} s after SIGTERM (exit 0)`,
    );
  } finally {
    // --kill-child: the container goes with unshare.
    if (container && container.exitCode === null) container.kill("SIGKILL");
    await pg?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`[smoke] FAILED: ${error instanceof SmokeFailure ? error.message : ((error as Error).stack ?? String(error))}`);
  process.exitCode = 1;
});
