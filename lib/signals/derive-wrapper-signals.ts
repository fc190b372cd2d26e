import { clipLine, clipLineKeepingEnd } from "@/lib/model/clip-text";
import { describeReadProblem } from "@/lib/sources/kube/read-problem";
import type { InjectedPodView, WrappedContainerView } from "@/lib/sources/kube/read-pods";
import { createSignal, type Signal } from "./signal-model";

// wrapper.restarting, one per injected pod whose container runs the wrapper as PID 1: critical while kubelet
// holds it in CrashLoopBackOff, a warning once it restarted and its last end is known. The detail carries the
// wrapper's own exit and kubelet's words, each clipped keeping its end (where the cause is), so it stays short.

export interface WrapperInput {
  pods: InjectedPodView[];
  /** Matching pods beyond the bound, not read (at least this many). */
  cut: number;
}

const DETAIL_LIMIT = 300;
const FIELD_LIMIT = 1_000;

export function deriveWrapperSignals(input: WrapperInput): Signal[] {
  const signals = input.pods.flatMap((pod) => (pod.wrapped.length > 0 ? [podSignal(pod)] : []));
  if (input.cut > 0) {
    const kept = input.pods.length;
    signals.push(
      createSignal(
        "wrapper.restarting",
        "injected pods",
        "unknown",
        `at least ${input.cut} more injected pods were not read (${kept} kept): their wrappers are not checked`,
        { kept, more: input.cut },
        { kind: "wrapper-pods-cut", fields: { kept, more: input.cut } },
      ),
    );
  }
  return signals;
}

// Unchanged pods keep their view (lib/sources/kube/read-pods.ts), so their signal is derived once.
const derivedBefore = new WeakMap<InjectedPodView, Signal>();

function podSignal(pod: InjectedPodView): Signal {
  let signal = derivedBefore.get(pod);
  if (!signal) derivedBefore.set(pod, (signal = derivePod(pod)));
  return signal;
}

function derivePod(pod: InjectedPodView): Signal {
  const subject = pod.namespace ? `${pod.namespace}/${pod.name ?? "?"}` : (pod.name ?? "pod");
  const crashing = pod.wrapped.find((c) => c.waiting?.reason === "CrashLoopBackOff");
  const restarted = pod.wrapped.filter((c) => c.restartCount > 0 && c.lastTerminated).sort((a, b) => b.restartCount - a.restartCount)[0];
  const container = crashing ?? restarted;
  if (container) {
    return createSignal("wrapper.restarting", subject, crashing ? "critical" : "warning", describe(container), evidenceOf(container), {
      kind: crashing ? "wrapper-crash-loop" : "wrapper-restarted",
      fields: {
        container: container.name,
        restarts: container.restartCount,
        waitingReason: container.waiting?.reason ?? null,
        waitingMessage: keepEnd(container.waiting?.message, FIELD_LIMIT),
        exitCode: container.lastTerminated?.exitCode ?? null,
        signal: container.lastTerminated?.signal ?? null,
        reason: container.lastTerminated?.reason ?? null,
        message: keepEnd(container.lastTerminated?.message, FIELD_LIMIT),
      },
    });
  }
  if (pod.problems.length > 0) {
    const problems = clipLine(pod.problems.map(describeReadProblem).join("; "), DETAIL_LIMIT);
    return createSignal(
      "wrapper.restarting",
      subject,
      "unknown",
      `pod could not be read: ${problems}`,
      { problems: pod.problems },
      {
        kind: "wrapper-pod-unreadable",
        fields: { problems: pod.problems.length },
      },
    );
  }
  return createSignal("wrapper.restarting", subject, "ok", describe(pod.wrapped[0]), evidenceOf(pod.wrapped[0]));
}

/** The container as read, its messages as short as the problem's: every pod's signal goes to the page. */
function evidenceOf(c: WrappedContainerView): WrappedContainerView {
  const short = <T extends { message?: string }>(part: T | undefined) => part && { ...part, message: keepEnd(part.message, FIELD_LIMIT) ?? undefined };
  return { ...c, waiting: short(c.waiting), lastTerminated: short(c.lastTerminated) };
}

/** "api: CrashLoopBackOff after 9 restarts; last exit 1 (Error): <message>; kubelet: <back-off message>". */
function describe(c: WrappedContainerView): string {
  const name = clipLine(c.name, 63);
  if (!c.reported) return `${name}: not started yet (no container status)`;
  const times = `${c.restartCount} restart${c.restartCount === 1 ? "" : "s"}`;
  const now = c.waiting ? clipLine(c.waiting.reason, 40) : c.running ? "running" : "not running";
  if (c.restartCount === 0 && !c.waiting) return `${name}: ${now}, never restarted`;
  const parts = [`${name}: ${now} after ${times}`];
  const end = c.lastTerminated;
  if (end) {
    const why = [end.reason ? ` (${clipLine(end.reason, 40)})` : "", end.message ? `: ${keepEnd(end.message, 140)}` : ""].join("");
    parts.push(`last exit ${end.exitCode}${end.signal !== undefined ? ` (signal ${end.signal})` : ""}${why}`);
  } else parts.push("how it last ended is not reported");
  if (c.waiting?.message) parts.push(`kubelet: ${keepEnd(c.waiting.message, 160)}`);
  return clipLineKeepingEnd(parts.join("; "), 400);
}

// Pods failing the same way share their message: each distinct text is clipped once (a small, reset cache).
const clippedBefore = new Map<string, string>();

function keepEnd(text: string | undefined, max: number): string | null {
  if (text === undefined) return null;
  const key = `${max}:${text}`;
  let clipped = clippedBefore.get(key);
  if (clipped === undefined) {
    if (clippedBefore.size >= 1_000) clippedBefore.clear();
    clippedBefore.set(key, (clipped = clipLineKeepingEnd(text, max)));
  }
  return clipped;
}
