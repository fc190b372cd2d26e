import { createHash } from "node:crypto";
import { pluginContainer, pluginRun, KAS_CONTAINER, kasPodName, type PluginRun } from "./control-plane";
import { probe, type ClusterModel, type NodeState, type PluginState } from "./model";

// What each container of a kube-apiserver pod prints, as the programs print it, for the scenario in force:
// - kube-apiserver: klog text ("E1128 02:49:22.123456      18 file.go:NN] \"msg\" key=value"). Its KMS lines are
//   kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/grpc_service.go@8932ffc9
//   (line 69: klog.ErrorS(err, "failed to create connection to unix socket", "addr", addr), at every dial) and
//   server/options/encryptionconfig/config.go (primeAndProbeKMSv2: "kms plugin failed health check probe", at -v=2,
//   every 10 s while failing; kmsv2PluginProbe.check and isKMSv2ProviderHealthyAndMaybeRotateDEK word the error).
//   Its start: cmd/kube-apiserver/app/server.go Run ("Version: %+v", "Golang settings").
// - the plugin (dc-tec/openbao-kubernetes-kms): slog JSON with the field names of internal/logging/logging.go@7444bfe4
//   (ts, level, message, ...), the events of cmd/bao-kms-provider/observability.go@14a41dab (auth.login at INFO when
//   ok, WARN otherwise; openbao.request, status.probe and kms.request at WARN when not ok, DEBUG and so unprinted
//   when ok; socket.stale_removed at WARN), their status values from internal/openbao/errors.go@d9fbbfee,
//   internal/status/controller.go@c41d358a, internal/kmsv2/observability.go@d9fbbfee and internal/auth (jwt_expired,
//   auth_failed, ...). When serve fails, main.go prints the error alone on stderr and exits 1.
// The file:line klog prints is the build's; the ones here are the simulator's.

export interface LogLine {
  at: Date;
  text: string;
}

export type ContainerLog = { lines: LogLine[] } | { status: number; reason: string; message: string };

export interface LogClock {
  now: Date;
  /** When the pods started. */
  started: Date;
  /** When a restarting container last started. */
  restarted: Date;
}

/** Periodic lines older than this are not generated: a long-running demo's file would be rotated by then anyway. */
const WINDOW_MS = 60 * 60_000;
/** kube-apiserver probes a failing plugin every 10 s (kmsv2PluginHealthzNegativeInterval). */
const KAS_RETRY_MS = 10_000;
/** The plugin's background status probe. */
const PLUGIN_PROBE_MS = 30_000;
const KAS_PID = 18;

const RESOURCES = ["secrets", "configmaps"];

/** The log of one container: the current instance, or the one before it (`previous`), or why there is none. */
export function containerLog(model: ClusterModel, node: NodeState, container: string, previous: boolean, clock: LogClock): ContainerLog {
  const pod = kasPodName(node.name);
  if (container === KAS_CONTAINER) {
    if (previous) return notFoundPrevious(container, pod);
    return { lines: kasLines(model, node, clock) };
  }
  const plugin = node.plugins.find((p) => pluginContainer(p.keyID) === container);
  if (!plugin) return { status: 400, reason: "BadRequest", message: `container ${container} is not valid for pod ${pod}` };
  const run = pluginRun(model, node, plugin);
  if (previous && (run.kind === "runs" || run.kind === "image")) return notFoundPrevious(container, pod);
  if (run.kind === "image") {
    // kubelet's validateContainerLogStatus for a container that never started.
    return { status: 400, reason: "BadRequest", message: `container "${container}" in pod "${pod}" is waiting to start: image can't be pulled` };
  }
  return { lines: pluginLines(model, node, plugin, run, previous, clock) };
}

const notFoundPrevious = (container: string, pod: string): ContainerLog => ({
  status: 400,
  reason: "BadRequest",
  message: `previous terminated container "${container}" in pod "${pod}" not found`,
});

// --- kube-apiserver ---

function kasLines(model: ClusterModel, node: NodeState, { started, restarted, now }: LogClock): LogLine[] {
  const lines: LogLine[] = [
    { at: started, text: klog("I", started, "server.go:156", "Version: v1.35.3") },
    { at: plus(started, 1), text: klog("I", plus(started, 1), "server.go:158", '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""') },
  ];
  for (const t of failureTicks(restarted, now, KAS_RETRY_MS)) {
    node.plugins.forEach((plugin) => {
      const failure = kasFailure(model, node, plugin, t);
      if (!failure) return;
      const at = new Date(t);
      if (failure.dial) {
        const sock = `/var/run/kmsplugin/kms-${plugin.keyID}.sock`;
        lines.push({
          at,
          text: klog(
            "E",
            at,
            "grpc_service.go:69",
            `"failed to create connection to unix socket" err="dial unix ${sock}: connect: ${failure.dial}" addr="${sock}"`,
          ),
        });
      }
      for (const resource of RESOURCES) {
        const provider = `${plugin.keyID}_${resource}`;
        const err = failure.dial
          ? `failed to perform status section of the healthz check for KMS Provider ${provider}, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded`
          : `kmsv2 Provider ${provider} is not healthy, error: got unexpected healthz status: unhealthy`;
        const when = plus(at, 3);
        lines.push({ at: when, text: klog("E", when, "config.go:418", `"kms plugin failed health check probe" err=${goQuote(err)} name="${provider}"`) });
      }
    });
  }
  return lines.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** What kube-apiserver's probe of one plugin meets at time t: a socket it cannot dial, or a plugin that says it is unhealthy. */
function kasFailure(model: ClusterModel, node: NodeState, plugin: PluginState, t: number): { dial?: string } | undefined {
  const run = pluginRun(model, node, plugin);
  if (run.kind === "image") return { dial: "no such file or directory" };
  if (run.kind === "fatal") return { dial: /address already in use/.test(run.error) ? "connection refused" : "no such file or directory" };
  if (run.kind === "killed") return { dial: "connection refused" };
  const seen = probe(model, node, plugin, Math.floor(t / KAS_RETRY_MS));
  if (seen.status === "healthy") return undefined;
  const dial = /dial unix \S+: connect: ([a-z ]+)/.exec(seen.detail ?? "")?.[1];
  return dial ? { dial } : {};
}

// --- the plugin ---

function pluginLines(model: ClusterModel, node: NodeState, plugin: PluginState, run: PluginRun, previous: boolean, clock: LogClock): LogLine[] {
  const crashed = run.kind === "panic" || run.kind === "fatal" || run.kind === "killed";
  const restarts = run.kind === "restarted" || crashed;
  if (previous && !restarts) return [];
  // A container waiting in back-off shows its last instance whether asked for the current or the previous one.
  const waiting = run.kind === "fatal" || run.kind === "killed";
  const showPrevious = previous || waiting;
  const start = showPrevious ? new Date(clock.restarted.getTime() - 70_000) : restarts ? clock.restarted : clock.started;
  const end = showPrevious ? new Date(clock.restarted.getTime() - 10_000) : clock.now;
  const lines: LogLine[] = [];
  const add = (at: Date, level: string, message: string, fields: Record<string, string | number>) => lines.push({ at, text: slog(at, level, message, fields) });
  // Starting over a socket the last instance left behind: it did not exit cleanly (internal/socket, OnStaleSocketRemoved).
  if (run.kind === "panic" || run.kind === "killed") add(plus(start, 0.2), "WARN", "socket.stale_removed", { operation: "socket.stale_removed", status: "ok" });
  if (run.kind === "fatal") {
    // The first status probe retries every 5 s until the bootstrap grace runs out, then serve returns its error.
    if (run.error.startsWith("initialize status cache")) {
      for (let s = 0; s < 30; s += 5) add(plus(start, s + 0.3), "WARN", "auth.login", { operation: "auth.login", status: "error" });
      lines.push({ at: plus(start, 30.4), text: run.error });
    } else lines.push({ at: plus(start, 0.3), text: run.error });
    return inWindow(lines, clock.now);
  }
  const auth = authStatus(model, node, plugin);
  add(plus(start, 0.4), auth === "ok" ? "INFO" : "WARN", "auth.login", { operation: "auth.login", status: auth });
  for (const t of failureTicks(clock.restarted < start ? start : clock.restarted, end, PLUGIN_PROBE_MS)) {
    const at = new Date(t);
    const seen = probe(model, node, plugin, Math.floor(t / PLUGIN_PROBE_MS));
    if (seen.status !== "healthy" && run.kind === "runs") probeLines(seen.detail ?? "", at, add);
    decryptLines(model, at, add);
  }
  if (showPrevious && run.kind === "panic") for (const [i, text] of PANIC.entries()) lines.push({ at: plus(end, i * 0.001), text });
  return inWindow(lines, clock.now);
}

type Add = (at: Date, level: string, message: string, fields: Record<string, string | number>) => void;

/** The plugin's own view of a failing probe, from the reason the reporter carries. */
function probeLines(detail: string, at: Date, add: Add): void {
  const openbao = openBaoFailure(detail);
  if (openbao) {
    add(at, "WARN", "openbao.request", {
      operation: "openbao.request",
      openbao_operation: openbao.operation,
      status: openbao.status,
      duration_ms: 4.2,
      error_class: openbao.status,
    });
  }
  const kind = openbao?.operation === "transit encrypt" ? "deep" : "metadata";
  add(plus(at, 0.01), "WARN", "status.probe", {
    operation: "status.probe",
    status: openbao && !openbao.login ? openbao.status : "error",
    probe_kind: kind,
    duration_ms: 4.6,
  });
}

/** Which OpenBao request failed and the class internal/openbao/errors.go gives it (transport errors are "unavailable"). */
function openBaoFailure(detail: string): { operation: string; status: string; login?: boolean } | undefined {
  const login = /\/v1\/auth\/(jwt|cert)\/login/.exec(detail)?.[1];
  if (login) return { operation: `${login} login`, status: /Code: 400/.test(detail) ? "invalid_request" : "unavailable", login: true };
  if (/sealed/i.test(detail)) return { operation: "transit metadata read", status: "sealed" };
  if (/not_found|status 404/.test(detail)) return { operation: "transit metadata read", status: "not_found" };
  if (/soft-deleted/.test(detail)) return { operation: "transit encrypt", status: "invalid_request" };
  if (/Code: 503|code 501|dial tcp|x509|tls:/.test(detail)) return { operation: "transit metadata read", status: "unavailable" };
  return undefined;
}

/** auth.login's status (internal/auth: ok, jwt_expired, jwt_invalid, cert_expired, auth_failed, error). */
function authStatus(model: ClusterModel, node: NodeState, plugin: PluginState): string {
  const detail = probe(model, node, plugin, 0).detail ?? "";
  if (/jwt expired/.test(detail)) return "jwt_expired";
  if (/jwt issued in future/.test(detail)) return "jwt_invalid";
  if (/auth\/cert\/login": remote error: tls: expired certificate/.test(detail)) return "cert_expired";
  if (/\/v1\/auth\/(jwt|cert)\/login/.test(detail)) return "auth_failed";
  if (/jwt read failed|pkcs11|X509Source/.test(detail)) return "error";
  return "ok";
}

/** kube-apiserver's decrypts the plugin refuses (the demo's decrypt counters), at each probe's time. */
function decryptLines(model: ClusterModel, at: Date, add: Add): void {
  const d = model.decrypt;
  const request = (status: string, errorClass: string, ms: number) =>
    add(plus(at, 7), "WARN", "kms.request", { operation: "kms.decrypt", status, duration_ms: ms, error_class: errorClass });
  if (d.aadErrors > 0) request(d.aadReason === "aad_missing" ? "failed_precondition" : "invalid_argument", d.aadReason, 0.21);
  if (d.unknownKeyIdErrors > 0) request("not_found", "key_id_unknown", 0.18);
  if (d.deadlineExceeded > 0) request("deadline_exceeded", "timeout", 5000.4);
}

// A crash has to happen somewhere: the frames are the simulator's, the shape is the Go runtime's.
const PANIC = [
  "panic: runtime error: invalid memory address or nil pointer dereference",
  "[signal SIGSEGV: segmentation violation code=0x1 addr=0x28 pc=0x9c1f2e]",
  "",
  "goroutine 214 [running]:",
  "github.com/dc-tec/openbao-kubernetes-kms/internal/status.(*Controller).DeepProbeOnce(0xc0002b6000, {0x1d8e4a0, 0xc0004a2f00})",
  "\t/src/internal/status/controller.go:196 +0x1ce",
  "github.com/dc-tec/openbao-kubernetes-kms/internal/status.(*Scheduler).Run.func2()",
  "\t/src/internal/status/scheduler.go:88 +0x65",
  "created by github.com/dc-tec/openbao-kubernetes-kms/internal/status.(*Scheduler).Run in goroutine 1",
  "\t/src/internal/status/scheduler.go:81 +0x1f4",
];

// --- formats ---

const plus = (at: Date, seconds: number) => new Date(at.getTime() + Math.round(seconds * 1000));

/**
 * When a failing probe logs: a second after the state in force began (the last scenario change; before it the
 * cluster was as it is now or healthy, and a healthy probe prints nothing), then every period, the last hour only.
 */
function* failureTicks(since: Date, until: Date, every: number): Generator<number> {
  const first = since.getTime() + 1000;
  const skip = Math.max(0, Math.ceil((until.getTime() - WINDOW_MS - first) / every));
  for (let t = first + skip * every; t <= until.getTime(); t += every) yield t;
}

const inWindow = (lines: LogLine[], now: Date) => lines.filter((l) => l.at.getTime() <= now.getTime()).sort((a, b) => a.at.getTime() - b.at.getTime());

/** The fraction of a second to `digits` places; the sub-millisecond ones stay the same for the same line, so two reads agree. */
function fraction(at: Date, salt: string, digits = 6): string {
  const below = parseInt(createHash("sha256").update(`${salt}${at.getTime()}`).digest("hex").slice(0, 8), 16) % 1_000_000;
  return `${String(at.getUTCMilliseconds()).padStart(3, "0")}${String(below).padStart(6, "0")}`.slice(0, digits);
}

/** klog's header: Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg */
function klog(level: "I" | "W" | "E", at: Date, where: string, message: string): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())} ${p(at.getUTCHours())}:${p(at.getUTCMinutes())}:${p(at.getUTCSeconds())}.${fraction(at, where)}`;
  return `${level}${stamp} ${String(KAS_PID).padStart(7)} ${where}] ${message}`;
}

/** Go's %q of an ASCII string, as klog quotes a value with spaces or quotes. */
const goQuote = (value: string) => JSON.stringify(value);

/** slog's JSON handler with the plugin's ReplaceAttr: ts (RFC 3339, nanoseconds trimmed), level, message, then the fields. */
function slog(at: Date, level: string, message: string, fields: Record<string, string | number>): string {
  return JSON.stringify({ ts: rfc3339Nano(at, message), level, message, ...fields });
}

/** time.RFC3339Nano: nine digits, trailing zeros dropped. */
export function rfc3339Nano(at: Date, salt = ""): string {
  const digits = fraction(at, salt, 9).replace(/0+$/, "");
  return at.toISOString().replace(/\.\d{3}Z$/, digits ? `.${digits}Z` : "Z");
}
