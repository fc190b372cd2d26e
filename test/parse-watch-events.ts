import { describeType, isRecord, parseJson, quote } from "@/lib/sources/describe-input";
import { parseKubeStatus, type KubeStatusView } from "./parse-kube-status";

// One line of a Kubernetes watch stream (newline-delimited JSON). An ERROR event carries a Status,
// typically 410 Expired, which tells the client to list again rather than resume.

export const WATCH_EVENT_TYPES = ["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"] as const;
export type WatchEventType = (typeof WATCH_EVENT_TYPES)[number];
const INITIAL_EVENTS_END = "k8s.io/initial-events-end";
const REDACTED = "[redacted]";
const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

function isWatchEventType(value: unknown): value is WatchEventType {
  return typeof value === "string" && (WATCH_EVENT_TYPES as readonly string[]).includes(value);
}

export interface WatchEvent {
  kind: "event";
  type: WatchEventType;
  object: Record<string, unknown>;
  resourceVersion?: string;
  /** True on the bookmark that ends the sendInitialEvents replay. */
  initialEventsEnd?: boolean;
  /** The decoded Status of an ERROR event. */
  status?: KubeStatusView;
}

export interface WatchProblem {
  kind: "problem";
  problem: string;
  /** The line as received, unless it may hold a Secret's data. */
  raw?: string;
}

export function parseWatchLine(line: unknown): WatchEvent | WatchProblem {
  if (typeof line !== "string") return { kind: "problem", problem: `watch line is ${describeType(line)}, not a string` };
  const raw = mayHoldSecret(line) ? undefined : line;
  const problem = (text: string): WatchProblem => ({ kind: "problem", problem: text, ...(raw !== undefined ? { raw } : {}) });
  const json = parseJson(line);
  if (!json.ok) return problem(`watch line: ${json.error}`);
  const event = json.value;
  if (!isRecord(event)) return problem(`watch line is ${describeType(event)}, not an event object`);
  if (event.type === undefined) return problem("watch event has no type");
  if (!isWatchEventType(event.type)) {
    const shown = typeof event.type === "string" ? quote(event.type) : describeType(event.type);
    return problem(`watch event type ${shown} is not ${WATCH_EVENT_TYPES.join(", ")}`);
  }
  const type = event.type;
  if (!isRecord(event.object)) return problem(`${type} event object is ${describeType(event.object)}, not an object`);
  const object = redactSecret(event.object);

  if (type === "ERROR") {
    const status = parseKubeStatus(object);
    if (status.kind === "problem") return problem(`ERROR event: ${status.problem}`);
    return { kind: "event", type, object, status };
  }
  const metadata = isRecord(object.metadata) ? object.metadata : undefined;
  const resourceVersion = metadata?.resourceVersion;
  if (resourceVersion !== undefined && typeof resourceVersion !== "string") {
    return problem(`${type} event metadata.resourceVersion is ${describeType(resourceVersion)}, not a string`);
  }
  // Without a resourceVersion a client cannot resume after this event; a bookmark carries nothing else.
  if (type === "BOOKMARK" && !resourceVersion) return problem("BOOKMARK event has no metadata.resourceVersion");
  const annotations = isRecord(metadata?.annotations) ? metadata.annotations : {};
  return {
    kind: "event",
    type,
    object,
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(type === "BOOKMARK" ? { initialEventsEnd: annotations[INITIAL_EVENTS_END] === "true" } : {}),
  };
}

export interface WatchStream {
  events: WatchEvent[];
  problems: { line: number; problem: string; raw?: string }[];
  /** The newest resourceVersion seen, to resume from; undefined after an ERROR, which demands a re-list. */
  resumeFrom?: string;
}

export function parseWatchStream(text: string): WatchStream {
  const stream: WatchStream = { events: [], problems: [] };
  if (typeof text !== "string") {
    stream.problems.push({ line: 0, problem: `watch stream is ${describeType(text)}, not a string` });
    return stream;
  }
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const result = parseWatchLine(line);
    if (result.kind === "problem") {
      stream.problems.push({ line: i + 1, problem: result.problem, ...(result.raw !== undefined ? { raw: result.raw } : {}) });
      return;
    }
    stream.events.push(result);
    if (result.type === "ERROR") delete stream.resumeFrom;
    else if (result.resourceVersion) stream.resumeFrom = result.resourceVersion;
  });
  return stream;
}

// Faultline watches operator CRs and workloads, but a parser cannot know what a caller points it at:
// a Secret's values must never travel further than this function.
function redactSecret(object: Record<string, unknown>): Record<string, unknown> {
  if (object.kind !== "Secret") return object;
  const redacted: Record<string, unknown> = { ...object };
  for (const field of ["data", "stringData"]) {
    const values = object[field];
    if (isRecord(values)) redacted[field] = Object.fromEntries(Object.keys(values).map((k) => [k, REDACTED]));
  }
  // `kubectl apply` keeps a full copy of the object, data included, in this annotation.
  const metadata = object.metadata;
  if (isRecord(metadata) && isRecord(metadata.annotations) && LAST_APPLIED in metadata.annotations) {
    redacted.metadata = { ...metadata, annotations: { ...metadata.annotations, [LAST_APPLIED]: REDACTED } };
  }
  return redacted;
}

// A line that failed to parse cannot be checked for its kind reliably (the kind may come after the data),
// so any line with a data map is kept out of problems.
function mayHoldSecret(line: string): boolean {
  return /"kind"\s*:\s*"Secret"/.test(line) || /"(data|stringData)"\s*:/.test(line);
}
