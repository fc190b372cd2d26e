import type { IncomingMessage, ServerResponse } from "node:http";
import type { DemoCluster } from "./cluster";
import { containerLog, rfc3339Nano } from "./container-logs";
import { KAS_CONTAINER, KAS_NAMESPACE, kasPodName, pluginContainer } from "./control-plane";
import { boolParam, intParam } from "./query";
import { sendStatus, sendText } from "./status";
import { StoreError } from "./store";

// GET /api/v1/namespaces/{ns}/pods/{name}/log, as kube-apiserver and kubelet answer it: the parameters are decoded
// as the parameter codec does (400 for one that does not parse), validated as ValidatePodLogOptions does (422
// Invalid), the container checked as LogLocation does (400), then kubelet's ReadLogs: the last tailLines lines,
// of those the ones since sinceSeconds, each prefixed with its RFC 3339 time when timestamps=true, cut at
// limitBytes. kubelet's own refusals (no previous instance, a container waiting to start) come back as 400.

export const POD_LOG_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/;

export function servePodLog(req: IncomingMessage, res: ServerResponse, url: URL, match: RegExpExecArray, cluster: DemoCluster): void {
  const namespace = decodeURIComponent(match[1]);
  const name = decodeURIComponent(match[2]);
  if (req.method !== "GET") return sendStatus(res, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(url, name);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return sendStatus(res, error.code, error.reason, error.message, error.details);
  }
  const node = namespace === KAS_NAMESPACE ? cluster.model.nodes.find((n) => n.present && kasPodName(n.name) === name) : undefined;
  if (!node) {
    // Only the kube-apiserver pods run programs with logs here; any other pod's containers have printed nothing.
    if (!cluster.object("", "pods", name, namespace)) return sendStatus(res, 404, "NotFound", `pods "${name}" not found`, { name, kind: "pods" });
    return sendText(res, 200, "", "text/plain");
  }
  const containers = [KAS_CONTAINER, ...node.plugins.map((p) => pluginContainer(p.keyID))];
  const container = options.container ?? "";
  if (!container) return sendStatus(res, 400, "BadRequest", `a container name must be specified for pod ${name}, choose one of: [${containers.join(" ")}]`);
  if (!containers.includes(container)) return sendStatus(res, 400, "BadRequest", `container ${container} is not valid for pod ${name}`);
  const now = cluster.now();
  const log = containerLog(cluster.model, node, container, options.previous, { now, started: cluster.started, restarted: cluster.restarted });
  if ("status" in log) return sendStatus(res, log.status, log.reason, log.message);
  let lines = log.lines;
  if (options.tailLines !== undefined) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
  if (options.sinceSeconds !== undefined) {
    const since = now.getTime() - options.sinceSeconds * 1000;
    lines = lines.filter((l) => l.at.getTime() >= since);
  }
  let body = Buffer.from(lines.map((l) => `${options.timestamps ? `${rfc3339Nano(l.at)} ` : ""}${l.text}\n`).join(""));
  if (options.limitBytes !== undefined && body.length > options.limitBytes) body = body.subarray(0, options.limitBytes);
  res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": body.length, "Cache-Control": "no-cache, private" });
  res.end(body);
}

function readOptions(url: URL, name: string) {
  const options = {
    container: url.searchParams.get("container") ?? undefined,
    previous: boolParam(url, "previous"),
    timestamps: boolParam(url, "timestamps"),
    follow: boolParam(url, "follow"),
    tailLines: intParam(url, "tailLines"),
    sinceSeconds: intParam(url, "sinceSeconds"),
    limitBytes: intParam(url, "limitBytes"),
    sinceTime: url.searchParams.get("sinceTime") ?? undefined,
  };
  if (options.follow) throw new StoreError(400, "BadRequest", "follow is not served by the simulated cluster");
  const invalid: string[] = [];
  if (options.tailLines !== undefined && options.tailLines < 0)
    invalid.push(`tailLines: Invalid value: ${options.tailLines}: must be greater than or equal to 0`);
  if (options.limitBytes !== undefined && options.limitBytes < 1) invalid.push(`limitBytes: Invalid value: ${options.limitBytes}: must be greater than 0`);
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined)
    invalid.push("Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified");
  else if (options.sinceSeconds !== undefined && options.sinceSeconds < 1)
    invalid.push(`sinceSeconds: Invalid value: ${options.sinceSeconds}: must be greater than 0`);
  if (invalid.length > 0) {
    const message = `PodLogOptions "${name}" is invalid: ${invalid.length === 1 ? invalid[0] : `[${invalid.join(", ")}]`}`;
    throw new StoreError(422, "Invalid", message, { name, kind: "PodLogOptions" });
  }
  if (options.sinceTime !== undefined) throw new StoreError(400, "BadRequest", "sinceTime is not served by the simulated cluster; use sinceSeconds");
  return options;
}
