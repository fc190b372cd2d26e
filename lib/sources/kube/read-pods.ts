import { describeType, isRecord } from "@/lib/sources/describe-input";
import { STACK } from "@/lib/sources/sources";
import { cleanText } from "@/lib/text/outside-text";
import type { ReadProblem } from "./read-problem";

// An injected workload pod (label cloudtaser.io/inject=true): the containers whose PID 1 is the wrapper, and
// what kubelet says of each in status.containerStatuses: restarts, why it waits (CrashLoopBackOff and
// kubelet's back-off message), and how it last ended (exit code, reason, termination message).

/** Longest reason or message kept: kubelet caps a termination message at 4,096 bytes; both ends are kept beyond that. */
const MAX_TEXT = 4_096;

export interface WrappedContainerView {
  name: string;
  /** false: the pod has no status for this container yet (Pending, or kubelet has not reported). */
  reported: boolean;
  restartCount: number;
  running: boolean;
  waiting?: { reason: string; message?: string };
  lastTerminated?: { exitCode: number; signal?: number; reason?: string; message?: string };
}

export interface InjectedPodView {
  name?: string;
  namespace?: string;
  /** The containers whose command starts the wrapper; empty when injection did not rewrite the pod. */
  wrapped: WrappedContainerView[];
  problems: ReadProblem[];
}

// A watch keeps an unchanged pod as the same object, so 5,000 pods are read once, not every round.
const readBefore = new WeakMap<object, InjectedPodView>();

/** The view is shared between calls for the same object: read it, never change it. */
export function readInjectedPod(obj: unknown, wrapper: string = STACK.wrapper): InjectedPodView {
  const memo = wrapper === STACK.wrapper && isRecord(obj);
  const before = memo ? readBefore.get(obj) : undefined;
  if (before) return before;
  const view = readPod(obj, wrapper);
  if (memo) readBefore.set(obj, view);
  return view;
}

function readPod(obj: unknown, wrapper: string): InjectedPodView {
  const problems: ReadProblem[] = [];
  if (!isRecord(obj)) {
    problems.push({ kind: "wrong-type", subject: "Pod", fields: { found: describeType(obj), expected: "an object" } });
    return { wrapped: [], problems };
  }
  const meta = isRecord(obj.metadata) ? obj.metadata : {};
  const view: InjectedPodView = {
    ...(typeof meta.name === "string" ? { name: meta.name } : {}),
    ...(typeof meta.namespace === "string" ? { namespace: meta.namespace } : {}),
    wrapped: [],
    problems,
  };
  const containers = isRecord(obj.spec) && Array.isArray(obj.spec.containers) ? obj.spec.containers : [];
  const names = containers.filter((c) => isRecord(c) && Array.isArray(c.command) && c.command[0] === wrapper && typeof c.name === "string");
  if (names.length === 0) return view;
  const statuses = readStatuses(isRecord(obj.status) ? obj.status.containerStatuses : undefined, problems);
  for (const container of names as { name: string }[]) {
    const status = statuses.find((s) => isRecord(s) && s.name === container.name);
    view.wrapped.push(
      status ? readContainerStatus(container.name, status, problems) : { name: container.name, reported: false, restartCount: 0, running: false },
    );
  }
  return view;
}

function readStatuses(value: unknown, problems: ReadProblem[]): Record<string, unknown>[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ kind: "wrong-type", subject: "status.containerStatuses", fields: { found: describeType(value), expected: "an array" } });
    return [];
  }
  return value.filter(isRecord);
}

function readContainerStatus(name: string, status: Record<string, unknown>, problems: ReadProblem[]): WrappedContainerView {
  const at = `status.containerStatuses[${name}]`;
  const restarts = status.restartCount;
  const count = typeof restarts === "number" && Number.isInteger(restarts) && restarts >= 0 ? restarts : 0;
  if (restarts !== undefined && count !== restarts)
    problems.push({ kind: "wrong-type", subject: `${at}.restartCount`, fields: { found: describeType(restarts), expected: "a count" } });
  const state = objectAt(status.state, `${at}.state`, problems);
  const waiting = objectAt(state?.waiting, `${at}.state.waiting`, problems);
  const terminated = objectAt(objectAt(status.lastState, `${at}.lastState`, problems)?.terminated, `${at}.lastState.terminated`, problems);
  const field = (block: Record<string, unknown> | undefined, path: string, key: string) => text(block?.[key], `${at}.${path}.${key}`, problems);
  const reason = field(waiting, "state.waiting", "reason");
  const message = field(waiting, "state.waiting", "message");
  const exitCode = terminated?.exitCode;
  if (terminated && !Number.isInteger(exitCode)) invalid(problems, `${at}.lastState.terminated.exitCode`, exitCode, "an integer");
  const lastReason = field(terminated, "lastState.terminated", "reason");
  const lastMessage = field(terminated, "lastState.terminated", "message");
  const signal = terminated?.signal;
  return {
    name,
    reported: true,
    restartCount: count,
    running: isRecord(state?.running),
    ...(reason ? { waiting: { reason, ...(message ? { message } : {}) } } : {}),
    ...(terminated && Number.isInteger(exitCode)
      ? {
          lastTerminated: {
            exitCode: exitCode as number,
            ...(Number.isInteger(signal) ? { signal: signal as number } : {}),
            ...(lastReason ? { reason: lastReason } : {}),
            ...(lastMessage ? { message: lastMessage } : {}),
          },
        }
      : {}),
  };
}

function objectAt(value: unknown, subject: string, problems: ReadProblem[]): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (isRecord(value)) return value;
  problems.push({ kind: "entry-wrong-type", subject, fields: { found: describeType(value), expected: "an object" } });
  return undefined;
}

/** A reason or message as text people may read: a string only, trimmed, both ends kept when long (the cause is often last). */
function text(value: unknown, subject: string, problems: ReadProblem[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return void invalid(problems, subject, value, "a string");
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const kept = trimmed.length > MAX_TEXT ? `${trimmed.slice(0, MAX_TEXT / 2)} … ${trimmed.slice(-MAX_TEXT / 2)}` : trimmed;
  return cleanText(kept, MAX_TEXT + 3);
}

function invalid(problems: ReadProblem[], subject: string, value: unknown, expected: string): void {
  problems.push({ kind: "invalid-field", subject, fields: { issue: `${subject} is ${describeType(value)}, not ${expected}` } });
}
