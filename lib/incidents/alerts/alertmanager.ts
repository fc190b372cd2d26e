import { z } from "zod";
import { SLUG } from "@/lib/content/ids";
import type { Severity } from "../rules/rule-types";
import { hideLabel, readAlert, type AlertKnowledge } from "./alert-reading";
import { ALERTMANAGER_ALERT_LIMIT } from "./alertmanager-limits";

// Alertmanager's webhook payload (version 4) and how an alert maps onto Faultline (docs/alertmanager.md).
// Values are cleaned (lib/text/outside-text.ts) before they are parsed: long ones are clipped, not refused.
const Labels = z.record(z.string(), z.string());
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const Timestamp = z.string().refine((s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)), "must be an RFC 3339 time");

export const AlertmanagerAlert = z.object({
  status: z.enum(["firing", "resolved"]),
  labels: Labels,
  annotations: Labels.default({}),
  startsAt: Timestamp,
  endsAt: Timestamp.optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().min(1).max(200),
});
export type AlertmanagerAlert = z.infer<typeof AlertmanagerAlert>;

export const AlertmanagerPayload = z.object({
  version: z.literal("4", { message: 'must be "4" (Alertmanager webhook version 4)' }),
  groupKey: z.string(),
  truncatedAlerts: z.number().int().min(0).optional(),
  status: z.enum(["firing", "resolved"]),
  receiver: z.string(),
  groupLabels: Labels.default({}),
  commonLabels: Labels.default({}),
  commonAnnotations: Labels.default({}),
  externalURL: z.string().default(""),
  alerts: z.array(AlertmanagerAlert).min(1, "must hold at least one alert").max(ALERTMANAGER_ALERT_LIMIT),
});
export type AlertmanagerPayload = z.infer<typeof AlertmanagerPayload>;

/** The `faultline_origin` label of the alerts Faultline's shipped rules make from its own metrics. */
export const FAULTLINE_ORIGIN = "faultline";

export interface MappedAlert {
  cluster: string;
  signal: string;
  subject: string;
  /** What the alert is about as its labels say it (node, instance…): its subject, unless the catalog mapped it. */
  target: string;
  alertname: string;
  severity: Severity;
  title: string;
  status: "firing" | "resolved";
  startsAt: Date;
  endsAt: Date | null;
  /** Alertmanager's own alert fingerprint (not Faultline's member key): with startsAt and status, what makes a delivery the same alert. */
  alertFingerprint: string;
  /** Catalog and runbook ids the alert named (checked against the catalog by the caller). */
  catalogIds: string[];
  runbookIds: string[];
  /** As delivered, cleaned, with anything shaped like a credential hidden. */
  labels: Record<string, string>;
  annotations: Record<string, string>;
  generatorURL: string | null;
  /** The catalog's entry for the alert (catalog/alerts.yaml), when it has one. */
  catalogAlert: string | null;
  /** What the alert says, as its member's texts: what its rule reads, its name with its labels, its annotations. */
  texts: string[];
  /** What placing it ranks its cause on (alert-reading.ts). */
  causeTexts: string[];
  /** Words nothing in the catalog recognised: its name, and label values. */
  unknownWords: string[];
  /** The signal and subject it had before the catalog mapped it: its member may still be under them. */
  unmapped: { signal: string; subject: string } | null;
}

const first = (labels: Record<string, string>, names: string[]) => names.map((n) => labels[n]?.trim()).find((v) => v);

function severityOf(value: string | undefined): Severity {
  const v = (value ?? "").toLowerCase();
  if (["critical", "page", "error", "high", "emergency", "fatal"].includes(v)) return "critical";
  if (["info", "informational", "none", "low"].includes(v)) return "info";
  return "warning";
}

/** Catalog or runbook ids in a URL's path: …/catalog/<id> or …/runbooks/<id> (any host, so a proxy prefix works). */
export function idsFromUrl(url: string | undefined): { catalog: string[]; runbooks: string[] } {
  const found = { catalog: [] as string[], runbooks: [] as string[] };
  if (!url) return found;
  let pathname: string;
  try {
    pathname = new URL(url, "http://x").pathname;
  } catch {
    return found;
  }
  const match = pathname.match(/\/(catalog|runbooks)\/([^/?#]+)\/?$/);
  if (match && SLUG.test(match[2])) found[match[1] as "catalog" | "runbooks"].push(match[2]);
  return found;
}

const hideAll = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k === "alertname" ? v : hideLabel(k, v)]));

/**
 * Maps one alert; `defaultCluster` comes from the webhook URL's ?cluster= when the alert has no cluster label.
 * With `known` (the catalog, alert-reading.ts) an alert the catalog maps carries the signal it restates, and its
 * alert name and cause labels in its subject, so two alerts on one target stay two members.
 */
export function mapAlert(
  alert: AlertmanagerAlert,
  payload: Pick<AlertmanagerPayload, "commonLabels">,
  defaultCluster: string | undefined,
  known?: AlertKnowledge,
): MappedAlert {
  const labels = hideAll({ ...payload.commonLabels, ...alert.labels });
  const annotations = hideAll(alert.annotations);
  const alertname = labels.alertname ?? "unnamed-alert";
  const catalogIds = new Set<string>();
  const runbookIds = new Set<string>();
  for (const id of [labels.faultline_catalog_id, annotations.faultline_catalog_id])
    if (id)
      id.split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .forEach((s) => catalogIds.add(s));
  for (const id of [labels.faultline_runbook_id, annotations.faultline_runbook_id])
    if (id)
      id.split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .forEach((s) => runbookIds.add(s));
  for (const url of [annotations.runbook_url, annotations.catalog_url, labels.runbook_url]) {
    const ids = idsFromUrl(url);
    ids.catalog.forEach((id) => catalogIds.add(id));
    ids.runbooks.forEach((id) => runbookIds.add(id));
  }
  // Labelled for Faultline (docs/alertmanager.md, "Rules that join Faultline's own incident"): a signal, a subject or a
  // link says what it is, and it maps as its labels say; the catalog maps only alerts that say nothing of Faultline.
  const labelled =
    catalogIds.size > 0 ||
    runbookIds.size > 0 ||
    [...Object.keys(labels), ...Object.keys(annotations)].some((k) => k.startsWith("faultline_") || k === "signal" || k === "subject");
  // An alert on Faultline's own signal (deploy/prometheus/) restates evidence Faultline already ranks; naming every
  // failure mode the signal detects would outweigh the details that tell them apart, so its ids are not links.
  if (labels.faultline_origin === FAULTLINE_ORIGIN) {
    catalogIds.clear();
    runbookIds.clear();
  }
  const target = first(labels, ["faultline_subject", "subject", "node", "instance", "pod", "service", "job"]) ?? "cluster";
  const named = first(labels, ["faultline_signal", "signal"]);
  const generatorURL = alert.generatorURL ?? null;
  const reading = known ? readAlert({ alertname, labels, annotations, generatorURL, labelled }, known) : undefined;
  // A catalogued alert restates its entry's signal, about this target and this cause.
  const restated = reading?.entry?.signal ?? undefined;
  // Bounded: the member key is held in unique indexes.
  const about = [alertname, ...(reading?.causes ?? []).map(([k, v]) => `${k}=${v.slice(0, 100)}`)].join(", ").slice(0, 300);
  const endsAt = alert.endsAt && !alert.endsAt.startsWith("0001-") ? new Date(alert.endsAt) : null;
  return {
    cluster: first(labels, ["faultline_cluster", "cluster", "cluster_name", "k8s_cluster"]) ?? defaultCluster ?? "alertmanager",
    signal: named ?? restated ?? alertname,
    subject: restated ? `${target} (${about})` : target,
    target,
    alertname,
    severity: severityOf(labels.severity),
    title: (annotations.summary ?? annotations.title ?? `${alertname} (${target})`).slice(0, 300),
    status: alert.status,
    startsAt: new Date(alert.startsAt),
    endsAt,
    alertFingerprint: alert.fingerprint,
    catalogIds: [...catalogIds],
    runbookIds: [...runbookIds],
    labels,
    annotations,
    generatorURL,
    catalogAlert: reading?.entry?.id ?? null,
    texts: reading?.texts ?? [],
    causeTexts: reading?.causeTexts ?? [],
    unknownWords: reading?.unknownWords ?? [],
    unmapped: restated ? { signal: alertname, subject: target } : null,
  };
}
