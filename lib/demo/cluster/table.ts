import type { IncomingMessage } from "node:http";
import type { Json, JsonObject } from "./fields";
import type { ResourceType } from "./resources";
import { StoreError } from "./store";

// Table output (Accept: application/json;as=Table;v=v1;g=meta.k8s.io), as kubectl get asks for it:
// the columns the real server's printers give each kind, -o wide's extra ones at priority 1.

interface Column {
  name: string;
  type?: "string" | "integer" | "date";
  format?: string;
  priority?: number;
  cell: (o: JsonObject, now: Date) => Json;
}

const m = (o: JsonObject) => (o.metadata ?? {}) as JsonObject;
const spec = (o: JsonObject) => (o.spec ?? {}) as JsonObject;
const status = (o: JsonObject) => (o.status ?? {}) as JsonObject;
const list = (v: Json | undefined) => (Array.isArray(v) ? (v as JsonObject[]) : []);

/** k8s.io/apimachinery's duration.HumanDuration, as the AGE column shows it. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8)
    return Math.floor(hours / 24) % 365 === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${Math.floor(hours / 24) % 365}d`;
  return `${Math.floor(hours / 24 / 365)}y`;
}

const NAME: Column = { name: "Name", format: "name", cell: (o) => m(o).name as string };
const AGE: Column = {
  name: "Age",
  cell: (o, now) => (m(o).creationTimestamp ? humanDuration(now.getTime() - Date.parse(m(o).creationTimestamp as string)) : "<unknown>"),
};
const text = (name: string, cell: (o: JsonObject) => Json, priority = 0, type: Column["type"] = "string"): Column => ({ name, type, priority, cell });
const none = (v: Json | undefined) => (v === undefined || v === null || v === "" ? "<none>" : v);
const containers = (o: JsonObject) => list((spec(spec(o).template as JsonObject).spec as JsonObject | undefined)?.containers);
const selector = (o: JsonObject) =>
  Object.entries(((spec(o).selector as JsonObject | undefined)?.matchLabels ?? {}) as Record<string, string>)
    .map(([k, v]) => `${k}=${v}`)
    .join(",") || "<none>";

const nodeAddress = (o: JsonObject, type: string) => none(list(status(o).addresses).find((a) => a.type === type)?.address);
const nodeInfo = (o: JsonObject, key: string) => none((status(o).nodeInfo as JsonObject | undefined)?.[key]);

// The -o wide columns that Deployments and DaemonSets share, as kubectl prints them.
const WORKLOAD_WIDE = [
  text(
    "Containers",
    (o) =>
      containers(o)
        .map((c) => c.name)
        .join(","),
    1,
  ),
  text(
    "Images",
    (o) =>
      containers(o)
        .map((c) => c.image)
        .join(","),
    1,
  ),
  text("Selector", selector, 1),
];

const COLUMNS: Record<string, Column[]> = {
  Node: [
    NAME,
    text("Status", (o) => {
      const ready = list(status(o).conditions).find((c) => c.type === "Ready");
      const state = ready?.status === "True" ? "Ready" : ready ? "NotReady" : "Unknown";
      return spec(o).unschedulable ? `${state},SchedulingDisabled` : state;
    }),
    text(
      "Roles",
      (o) =>
        Object.keys((m(o).labels ?? {}) as object)
          .filter((k) => k.startsWith("node-role.kubernetes.io/"))
          .map((k) => k.slice(24))
          .sort()
          .join(",") || "<none>",
    ),
    AGE,
    text("Version", (o) => nodeInfo(o, "kubeletVersion")),
    text("Internal-IP", (o) => nodeAddress(o, "InternalIP"), 1),
    text("External-IP", (o) => nodeAddress(o, "ExternalIP"), 1),
    text("OS-Image", (o) => nodeInfo(o, "osImage"), 1),
    text("Kernel-Version", (o) => nodeInfo(o, "kernelVersion"), 1),
    text("Container-Runtime", (o) => nodeInfo(o, "containerRuntimeVersion"), 1),
  ],
  Pod: [
    NAME,
    text("Ready", (o) => `${list(status(o).containerStatuses).filter((c) => c.ready).length}/${list(spec(o).containers).length}`),
    text("Status", (o) => {
      const waiting = list(status(o).containerStatuses)
        .map((c) => (c.state as JsonObject | undefined)?.waiting as JsonObject | undefined)
        .find(Boolean);
      return (waiting?.reason as string | undefined) ?? (status(o).phase as string | undefined) ?? "Unknown";
    }),
    text("Restarts", (o) => list(status(o).containerStatuses).reduce((n, c) => n + Number(c.restartCount ?? 0), 0), 0, "integer"),
    AGE,
    text("IP", (o) => none(status(o).podIP), 1),
    text("Node", (o) => none(spec(o).nodeName), 1),
    text("Nominated Node", (o) => none(status(o).nominatedNodeName), 1),
    text("Readiness Gates", () => "<none>", 1),
  ],
  Namespace: [NAME, text("Status", (o) => (status(o).phase as string) ?? ""), AGE],
  Endpoints: [
    NAME,
    text("Endpoints", (o) => {
      const pairs = list(o.subsets).flatMap((s) => list(s.addresses).flatMap((a) => list(s.ports).map((p) => `${a.ip}:${p.port}`)));
      return pairs.length === 0 ? "<none>" : pairs.length > 3 ? `${pairs.slice(0, 3).join(",")} + ${pairs.length - 3} more...` : pairs.join(",");
    }),
    AGE,
  ],
  Deployment: [
    NAME,
    text("Ready", (o) => `${status(o).readyReplicas ?? 0}/${spec(o).replicas ?? 0}`),
    text("Up-to-date", (o) => (status(o).updatedReplicas as number) ?? 0, 0, "integer"),
    text("Available", (o) => (status(o).availableReplicas as number) ?? 0, 0, "integer"),
    AGE,
    ...WORKLOAD_WIDE,
  ],
  DaemonSet: [
    NAME,
    ...(["desiredNumberScheduled", "currentNumberScheduled", "numberReady", "updatedNumberScheduled", "numberAvailable"] as const).map((f, i) =>
      text(["Desired", "Current", "Ready", "Up-to-date", "Available"][i], (o) => (status(o)[f] as number) ?? 0, 0, "integer"),
    ),
    text(
      "Node Selector",
      (o) =>
        Object.entries(((spec(spec(o).template as JsonObject).spec as JsonObject | undefined)?.nodeSelector ?? {}) as Record<string, string>)
          .map(([k, v]) => `${k}=${v}`)
          .join(",") || "<none>",
    ),
    AGE,
    ...WORKLOAD_WIDE,
  ],
  MutatingWebhookConfiguration: [NAME, text("Webhooks", (o) => list(o.webhooks).length, 0, "integer"), AGE],
  // The ClusterOperator CRD's additionalPrinterColumns.
  ClusterOperator: [
    NAME,
    text("Version", (o) => (list(status(o).versions).find((v) => v.name === "operator")?.version as string) ?? ""),
    ...["Available", "Progressing", "Degraded"].map((t) => text(t, (o) => (list(status(o).conditions).find((c) => c.type === t)?.status as string) ?? "")),
    {
      name: "Since",
      type: "date" as const,
      priority: 0,
      cell: (o: JsonObject, now: Date) => {
        const since = list(status(o).conditions).find((c) => c.type === "Available")?.lastTransitionTime as string | undefined;
        return since ? humanDuration(now.getTime() - Date.parse(since)) : "";
      },
    },
    text("Message", (o) => (list(status(o).conditions).find((c) => c.type === "Degraded")?.message as string) ?? "", 1),
  ],
};

const DESCRIPTION: Record<string, string> = {
  Name: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
  Age: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.",
};

/** The Table version the client asked for (v1 or v1beta1), or undefined when it did not ask for one. */
export function wantsTable(req: IncomingMessage): "v1" | "v1beta1" | undefined {
  const accept = String(req.headers.accept ?? "");
  for (const part of accept.split(",")) {
    const params = new Map(
      part
        .split(";")
        .slice(1)
        .map((p) => p.trim().split("=") as [string, string]),
    );
    if (params.get("as") === "Table" && params.get("g") === "meta.k8s.io" && (params.get("v") === "v1" || params.get("v") === "v1beta1"))
      return params.get("v") as "v1" | "v1beta1";
  }
  return undefined;
}

export function includeObjectOf(url: URL): "None" | "Metadata" | "Object" {
  const value = url.searchParams.get("includeObject") ?? "Metadata";
  if (value !== "None" && value !== "Metadata" && value !== "Object")
    throw new StoreError(400, "BadRequest", `includeObject: Unsupported value: "${value}": supported values: "Metadata", "None", "Object"`);
  return value;
}

export function toTable(
  type: ResourceType,
  items: JsonObject[],
  meta: JsonObject,
  opts: { version: "v1" | "v1beta1"; includeObject: "None" | "Metadata" | "Object"; now: Date; headers?: boolean },
): JsonObject {
  const columns = COLUMNS[type.kind] ?? [NAME, AGE];
  const object = (o: JsonObject): Json =>
    opts.includeObject === "Object"
      ? o
      : {
          kind: "PartialObjectMetadata",
          apiVersion: `meta.k8s.io/${opts.version}`,
          metadata: Object.fromEntries(Object.entries(m(o)).filter(([key]) => key !== "managedFields")),
        };
  return {
    kind: "Table",
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: meta,
    columnDefinitions:
      opts.headers === false
        ? null
        : columns.map((c) => ({
            name: c.name,
            type: c.type ?? "string",
            format: c.format ?? "",
            description: DESCRIPTION[c.name] ?? c.name,
            priority: c.priority ?? 0,
          })),
    rows: items.map((o) => ({ cells: columns.map((c) => c.cell(o, opts.now)), ...(opts.includeObject === "None" ? {} : { object: object(o) }) })),
  };
}
