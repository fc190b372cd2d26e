import { fillReads, type AlertEntry } from "@/lib/catalog/alert-catalog";
import type { Catalog, ErrorClass } from "@/lib/catalog/schema";
import { classifyText } from "@/lib/diagnosis/classify";
import { cleanText } from "@/lib/text/outside-text";
import { hideSecrets, HIDDEN } from "@/lib/text/secrets";

// What an alert says besides its name, read the way a signal's problem is read: the catalog's entry for it
// (catalog/alerts.yaml) quotes what its rule reads with the values of its cause labels, and its labels and
// annotations become the member's texts, so the error classes and the suspects read them. Words nothing
// recognises are kept, so the incident can say what Faultline did not understand.

/** Labels that place an alert (cluster, subject, severity) or name its target: not words about its cause. */
const PLACING = new Set([
  "alertname",
  "severity",
  "cluster",
  "cluster_name",
  "k8s_cluster",
  "subject",
  "signal",
  "node",
  "instance",
  "pod",
  "service",
  "job",
  "namespace",
  "container",
  "endpoint",
  "prometheus",
  "prometheus_replica",
]);
const isWordLabel = (name: string) => !PLACING.has(name) && !name.startsWith("faultline_");

/** Texts kept per alert and the length of each, as for a signal's problem texts (suspects.ts evidenceTexts). */
const MAX_TEXTS = 6;
const MAX_TEXT = 8_192;
const MAX_WORDS = 20;
const MAX_WORD = 200;
/** The longest expression read from a generatorURL: a rule's expression, not a document. */
const MAX_EXPRESSION = 4_096;
const MEMO_LIMIT = 10_000;

/** The catalog as reading an alert needs it, indexed once per catalog. */
export interface AlertKnowledge {
  byName: Map<string, AlertEntry>;
  /** Entries an expression identifies, the most specific (most words) first. */
  byExpression: AlertEntry[];
  classes: readonly ErrorClass[];
  /** Whether a word is understood (a text shows some error class, a cause value adds one): 100,000 alerts of one rule share a few words. */
  classified: Map<string, boolean>;
}

const knowledge = new WeakMap<object, AlertKnowledge>();

export function alertKnowledge(catalog: Pick<Catalog, "alerts" | "errorClasses">): AlertKnowledge {
  let known = knowledge.get(catalog);
  if (!known) {
    known = {
      byName: new Map(catalog.alerts.flatMap((e) => e.alerts.map((name) => [name, e] as const))),
      byExpression: catalog.alerts.filter((e) => e.metrics.length > 0).sort((a, b) => b.metrics.length - a.metrics.length),
      classes: catalog.errorClasses,
      classified: new Map(),
    };
    knowledge.set(catalog, known);
  }
  return known;
}

/** A label's or annotation's value with anything shaped like a credential hidden, its name read with it (token=…). */
export function hideLabel(name: string, value: string): string {
  if (!value) return value;
  const probe = hideSecrets(`${name}=${value}`).text;
  return probe.startsWith(`${name}=`) ? probe.slice(name.length + 1) : HIDDEN;
}

/** The expression of the rule behind an alert: Prometheus links each alert to it (generatorURL, /graph?g0.expr=…). */
export function expressionOf(generatorURL: string | null): string | undefined {
  if (!generatorURL) return undefined;
  try {
    return new URL(generatorURL, "http://x").searchParams.get("g0.expr")?.slice(0, MAX_EXPRESSION) || undefined;
  } catch {
    return undefined;
  }
}

export function entryFor(alertname: string, generatorURL: string | null, known: AlertKnowledge): AlertEntry | undefined {
  const named = known.byName.get(alertname);
  if (named) return named;
  const expression = expressionOf(generatorURL);
  return expression ? known.byExpression.find((e) => e.metrics.every((word) => expression.includes(word))) : undefined;
}

function shows(text: string, known: AlertKnowledge): boolean {
  let hit = known.classified.get(text);
  if (hit === undefined) {
    hit = classifyText(text, known.classes).length > 0;
    if (known.classified.size >= MEMO_LIMIT) known.classified.clear();
    known.classified.set(text, hit);
  }
  return hit;
}

/** Whether a cause label's value is a word the entry lists, or one that adds an error class to what its rule reads. */
function understood(entry: AlertEntry, name: string, value: string, known: AlertKnowledge): boolean {
  const cause = entry.cause[name];
  if (cause.values.includes(value) || cause.unclassified.includes(value)) return true;
  const key = `${entry.id}\u0000${name}\u0000${value}`;
  let hit = known.classified.get(key);
  if (hit === undefined) {
    const bare = classifyText(fillReads(entry, {}), known.classes).length;
    hit = classifyText(fillReads(entry, { [name]: value }), known.classes).length > bare;
    if (known.classified.size >= MEMO_LIMIT) known.classified.clear();
    known.classified.set(key, hit);
  }
  return hit;
}

export interface AlertReading {
  entry: AlertEntry | undefined;
  /** The cause labels the alert carries, as name and value. */
  causes: [string, string][];
  /** Name, labels, annotations and (catalogued) what its rule reads: cleaned, secrets hidden, at most six. */
  texts: string[];
  /** What its cause is read from when it is placed: what its rule reads, else its word labels. */
  causeTexts: string[];
  /** The alert name and `label="value"` words nothing in the catalog recognised (none for a catalogued alert's name). */
  unknownWords: string[];
}

const quote = (name: string, value: string) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`;
const clip = (text: string) => hideSecrets(cleanText(text, MAX_TEXT)).text;

/**
 * Reads one alert. `labels` and `annotations` are as mapAlert holds them (secrets hidden). An alert `labelled` for
 * Faultline (a signal, a subject, a catalog or runbook link) says what it is itself: the catalog is not asked, and
 * its words are not reported.
 */
export function readAlert(
  alert: { alertname: string; labels: Record<string, string>; annotations: Record<string, string>; generatorURL: string | null; labelled: boolean },
  known: AlertKnowledge,
): AlertReading {
  const { alertname, labels, annotations } = alert;
  const entry = alert.labelled ? undefined : entryFor(alertname, alert.generatorURL, known);
  const causes = entry ? Object.keys(entry.cause).flatMap((name): [string, string][] => (labels[name] ? [[name, labels[name]]] : [])) : [];
  const reads = entry ? fillReads(entry, Object.fromEntries(causes)) : undefined;
  const words = Object.keys(labels)
    .filter(isWordLabel)
    .sort()
    .map((name): [string, string] => [name, labels[name]]);
  const labelLine = `${alertname}{${Object.keys(labels)
    .filter((n) => n !== "alertname")
    .sort()
    .map((n) => quote(n, labels[n]))
    .join(",")}}`;
  const notes = ["summary", "description", ...Object.keys(annotations).sort()].map((n) => annotations[n]).filter(Boolean);
  const texts = [...new Set([reads, labelLine, ...notes].filter((t): t is string => !!t).map(clip))].slice(0, MAX_TEXTS);

  const unknown: string[] = [];
  if (entry) {
    for (const [name, value] of causes) if (!understood(entry, name, value, known)) unknown.push(quote(name, value));
  } else if (!alert.labelled) {
    unknown.push(alertname);
    for (const [name, value] of words) if (!shows(quote(name, value), known) && !shows(value, known)) unknown.push(quote(name, value));
  }
  return {
    entry,
    causes,
    texts,
    causeTexts: reads ? [reads] : alert.labelled ? [] : words.map(([n, v]) => quote(n, v)),
    unknownWords: unknown.slice(0, MAX_WORDS).map((w) => cleanText(w, MAX_WORD)),
  };
}
