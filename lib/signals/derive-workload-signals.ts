import { clipLine } from "@/lib/model/clip-text";
import { describeReadProblem, type ReadProblem } from "@/lib/sources/kube/read-problem";
import type { DaemonSetView, DeploymentView, EndpointsView, WebhookConfigurationView, WebhookView } from "@/lib/sources/kube/read-workloads";
import { STACK } from "@/lib/sources/sources";
import { createSignal, type Signal } from "./signal-model";

// The CloudTaser-like stack: the operator, its injection webhook, the bridge and the eBPF agent DaemonSet.
// Zero counts from a view that could not be read are "unknown": a parse failure is not an outage.

const DETAIL_LIMIT = 300;
const DAY_MS = 86_400_000;

export function deriveWebhookSignals(view: WebhookConfigurationView | null, now: Date, caWarningDays: number): Signal[] {
  if (view === null) {
    return [
      createSignal("webhook.missing", "webhook", "critical", "the MutatingWebhookConfiguration is absent: pods are admitted without injection", null, {
        kind: "webhook-configuration-missing",
      }),
    ];
  }
  const name = view.name ?? "webhook configuration";
  if (view.webhooks.length === 0) {
    const why = view.problems.length > 0 ? `: ${clipLine(describeAll(view.problems), DETAIL_LIMIT)}` : "";
    return [
      createSignal("webhook.missing", "webhook", "critical", `${name} holds no usable webhook${why}`, view, {
        kind: "webhook-none-usable",
        fields: { configuration: name, problems: view.problems.length },
      }),
    ];
  }
  return [
    createSignal("webhook.missing", "webhook", "ok", `${name} present with ${view.webhooks.map((w) => w.name).join(", ")}`, view),
    ...view.webhooks.map((webhook) => checkCaBundle(webhook, view.problems, now, caWarningDays)),
  ];
}

function checkCaBundle(webhook: WebhookView, problems: ReadProblem[], now: Date, warningDays: number): Signal {
  const subject = webhook.name;
  if (!webhook.caNotAfter) {
    const own = problems.filter((p) => "name" in p.fields && p.fields.name === webhook.name);
    const detail = webhook.caBundlePresent
      ? `caBundle expiry unknown: ${clipLine(describeAll(own) || "no certificate could be read", DETAIL_LIMIT)}`
      : "no caBundle: the API server verifies the webhook against its own trust roots";
    return createSignal("webhook.ca.expiring", subject, "unknown", detail, webhook, {
      kind: webhook.caBundlePresent ? "webhook-ca-unreadable" : "webhook-ca-absent",
      fields: { webhook: webhook.name },
    });
  }
  const daysLeft = (Date.parse(webhook.caNotAfter) - now.getTime()) / DAY_MS;
  if (daysLeft <= 0) {
    return createSignal(
      "webhook.ca.expiring",
      subject,
      "critical",
      `caBundle expired at ${webhook.caNotAfter}: the API server can no longer call the webhook (${policyConsequence(webhook)})`,
      webhook,
      {
        kind: "webhook-ca-expired",
        fields: { webhook: webhook.name, notAfter: webhook.caNotAfter, failurePolicy: webhook.failurePolicy },
      },
    );
  }
  const left = `caBundle expires at ${webhook.caNotAfter} (${Math.floor(daysLeft)} days left)`;
  const expiring = {
    kind: "webhook-ca-expiring",
    fields: { webhook: webhook.name, notAfter: webhook.caNotAfter, daysLeft: Math.floor(daysLeft), warningDays },
  };
  return createSignal(
    "webhook.ca.expiring",
    subject,
    daysLeft <= warningDays ? "warning" : "ok",
    left,
    webhook,
    daysLeft <= warningDays ? expiring : undefined,
  );
}

/** What a webhook the API server cannot call does to the pods it matches. */
function policyConsequence(webhook: WebhookView): string {
  return webhook.failurePolicy === "Fail" ? "failurePolicy Fail: matching pods are refused" : "failurePolicy Ignore: matching pods start without injection";
}

/**
 * Whether each webhook's Service has ready endpoints. With none, the API server cannot call the webhook:
 * under failurePolicy Fail every matching pod is refused; under Ignore they start without injection.
 */
export function deriveWebhookEndpointSignals(view: WebhookConfigurationView | null, endpoints: EndpointsView[]): Signal[] {
  if (!view) return [];
  return view.webhooks.flatMap((webhook) => {
    if (!webhook.service) return [];
    const { namespace, name } = webhook.service;
    const found = endpoints.find((e) => e.namespace === namespace && e.name === name);
    const service = `service ${namespace}/${name}`;
    const facts = { service: `${namespace}/${name}`, failurePolicy: webhook.failurePolicy ?? null };
    const consequence = policyConsequence(webhook);
    if (!found)
      return [
        createSignal(
          "webhook.no-endpoints",
          webhook.name,
          "critical",
          `${service} has no Endpoints object (${consequence})`,
          { service: webhook.service },
          { kind: "webhook-endpoints-missing", fields: facts },
        ),
      ];
    if (found.problems.length > 0 && found.ready === 0) {
      return [
        createSignal(
          "webhook.no-endpoints",
          webhook.name,
          "unknown",
          `${service}: endpoints could not be read: ${clipLine(describeAll(found.problems), DETAIL_LIMIT)}`,
          found,
          { kind: "webhook-endpoints-unreadable", fields: facts },
        ),
      ];
    }
    if (found.ready === 0) {
      return [
        createSignal(
          "webhook.no-endpoints",
          webhook.name,
          "critical",
          `${service} has no ready endpoints${found.notReady > 0 ? ` (${found.notReady} not ready)` : ""} (${consequence})`,
          found,
          { kind: "webhook-no-ready-endpoints", fields: { ...facts, notReady: found.notReady } },
        ),
      ];
    }
    return [createSignal("webhook.no-endpoints", webhook.name, "ok", `${service} has ${found.ready} ready endpoint${found.ready === 1 ? "" : "s"}`, found)];
  });
}

export function deriveOperatorSignals(view: DeploymentView): Signal[] {
  const subject = workloadName(view, "operator");
  const counts = `${view.available} of ${view.replicas} replicas available`;
  if (view.available > 0) return [createSignal("operator.unavailable", subject, "ok", counts, view)];
  if (view.problems.length > 0) {
    return [
      createSignal("operator.unavailable", subject, "unknown", `deployment could not be read: ${clipLine(describeAll(view.problems), DETAIL_LIMIT)}`, view, {
        kind: "operator-unreadable",
        fields: { problems: view.problems.length },
      }),
    ];
  }
  const why = [view.deleting ? "being deleted" : "", view.progressDeadlineExceeded ? "rollout past its progress deadline" : ""].filter(Boolean);
  const facts = {
    available: view.available,
    replicas: view.replicas,
    deleting: Boolean(view.deleting),
    progressDeadlineExceeded: Boolean(view.progressDeadlineExceeded),
  };
  return [
    createSignal("operator.unavailable", subject, "critical", `${counts}${why.length > 0 ? ` (${why.join(", ")})` : ""}`, view, {
      kind: "operator-unavailable",
      fields: facts,
    }),
  ];
}

export function deriveEbpfSignals(view: DaemonSetView): Signal[] {
  const subject = workloadName(view, "ebpf-agent");
  const counts = `${view.ready} of ${view.desired} agent pods ready`;
  if (view.ready === 0 && view.problems.length > 0) {
    return [
      createSignal(
        "ebpf.daemonset.unavailable",
        subject,
        "unknown",
        `DaemonSet could not be read: ${clipLine(describeAll(view.problems), DETAIL_LIMIT)}`,
        view,
        { kind: "ebpf-unreadable", fields: { problems: view.problems.length } },
      ),
    ];
  }
  // No ready agent means no enforcement anywhere, even when no node is scheduled to run one.
  if (view.ready === 0)
    return [
      createSignal("ebpf.daemonset.unavailable", subject, "critical", counts, view, {
        kind: "ebpf-no-ready-agents",
        fields: { ready: 0, desired: view.desired },
      }),
    ];
  if (view.ready < view.desired) {
    return [
      createSignal("ebpf.daemonset.unavailable", subject, "warning", `${counts}: ${view.desired - view.ready} not ready`, view, {
        kind: "ebpf-agents-not-ready",
        fields: { ready: view.ready, desired: view.desired },
      }),
    ];
  }
  return [createSignal("ebpf.daemonset.unavailable", subject, "ok", counts, view)];
}

/** The bridge Deployment as the monitor found it: read, absent (looked for, not there), or not readable (the watch's error). */
export type BridgeInput = DeploymentView | { absent: true } | { unreadable: string };

/**
 * Like the operator, a Deployment that is not there means "not installed", not down: nothing pages for a part of
 * the stack a cluster does not run. Unlike it, some but not all replicas available is a warning.
 */
export function deriveBridgeSignals(input: BridgeInput): Signal[] {
  const subject = `${STACK.namespace}/${STACK.bridge}`;
  if ("unreadable" in input) {
    return [
      createSignal("bridge.unavailable", subject, "unknown", `the bridge Deployment could not be read: ${clipLine(input.unreadable, DETAIL_LIMIT)}`, null, {
        kind: "bridge-unreadable",
        fields: { error: clipLine(input.unreadable, DETAIL_LIMIT) },
      }),
    ];
  }
  if ("absent" in input) {
    return [
      createSignal("bridge.unavailable", subject, "ok", `no Deployment ${subject}: the bridge is not installed, so no workload depends on it here`, null),
    ];
  }
  const view = input;
  const counts = `${view.available} of ${view.replicas} replicas available`;
  if (view.available === 0 && view.problems.length > 0) {
    return [
      createSignal("bridge.unavailable", subject, "unknown", `deployment could not be read: ${clipLine(describeAll(view.problems), DETAIL_LIMIT)}`, view, {
        kind: "bridge-unreadable",
        fields: { problems: view.problems.length },
      }),
    ];
  }
  if (view.available >= view.replicas && view.available > 0) return [createSignal("bridge.unavailable", subject, "ok", counts, view)];
  const why = [view.deleting ? "being deleted" : "", view.progressDeadlineExceeded ? "rollout past its progress deadline" : ""].filter(Boolean);
  const fields = { available: view.available, replicas: view.replicas, deleting: view.deleting, progressDeadlineExceeded: view.progressDeadlineExceeded };
  const none = view.available === 0;
  return [
    createSignal("bridge.unavailable", subject, none ? "critical" : "warning", `${counts}${why.length > 0 ? ` (${why.join(", ")})` : ""}`, view, {
      kind: none ? "bridge-unavailable" : "bridge-degraded",
      fields,
    }),
  ];
}

function workloadName(view: { name?: string; namespace?: string }, fallback: string): string {
  if (!view.name) return fallback;
  return view.namespace ? `${view.namespace}/${view.name}` : view.name;
}

const describeAll = (problems: readonly ReadProblem[]) => problems.map(describeReadProblem).join("; ");
