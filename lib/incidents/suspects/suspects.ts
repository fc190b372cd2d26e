import { getCatalog } from "@/lib/catalog/queries";
import type { CatalogEntry, FailureMode } from "@/lib/catalog/schema";
import type { ChoiceAnswer, RunbookAnswer } from "@/lib/diagnosis/answers";
import { classifyText } from "@/lib/diagnosis/classify";
import { diagnose, type ActiveSignal, type EvidenceText, type Suspect } from "@/lib/diagnosis/rank";
import type { Signal } from "@/lib/signals/signal-model";
import { cleanText } from "@/lib/text/outside-text";

// An incident's suspects: the diagnosis (lib/diagnosis) over the catalog this server serves, with its error
// classes and runbooks. Only the entries to rank can be narrowed (tests rank a subset).

export interface SuspectInput {
  active: ActiveSignal[];
  /** What the incident gathered besides its signals: pasted output, log tails, journals. */
  texts?: EvidenceText[];
  /** Questions the on-call answered in runbooks walked for the incident, or where the incident page asked them. */
  answers?: RunbookAnswer[];
  /** Catalog questions answered on the incident page by naming which of two suspects the check showed. */
  choices?: ChoiceAnswer[];
  /** Signals seen ok now: counter-evidence. */
  healthy?: { signal: string; subject: string }[];
  /** Catalog ids an alert named, with the alert that named each. */
  linked?: { id: string; by: string }[];
  entries?: CatalogEntry[];
  limit?: number;
}

// The failure modes of an entry list, kept per list so the diagnosis can keep its index per catalog.
const modesOf = new WeakMap<CatalogEntry[], FailureMode[]>();

export function rankSuspects({ active, texts, answers, choices, healthy, linked, entries, limit }: SuspectInput): Suspect[] {
  const catalog = getCatalog();
  const list = entries ?? catalog.entries;
  let modes = modesOf.get(list);
  if (!modes) modesOf.set(list, (modes = list.filter((e): e is FailureMode => e.kind === "failure-mode")));
  return diagnose({
    active,
    texts,
    answers,
    choices,
    healthy,
    linked,
    modes,
    classes: catalog.errorClasses,
    runbooks: catalog.runbooks,
    groups: catalog.rootCauses,
    limit,
  });
}

/** Texts kept per signal, and the length of each: the classifier reads the first 8 KiB of a text anyway. */
const MAX_TEXTS = 6;
const MAX_TEXT = 8_192;

/**
 * What a signal says besides its sentence: the string facts of its problem (a plugin's whole error, a probe
 * body, a pod's last exit), distinct, cleaned and clipped. Incidents store them with the member and the
 * evaluation ranks on the same, so what it measures is what the incident page shows.
 */
export function evidenceTexts(signal: Pick<Signal, "detail" | "problem">): string[] {
  const out: string[] = [];
  for (const v of Object.values(signal.problem?.fields ?? {})) {
    if (typeof v !== "string" || v.length === 0 || v === signal.detail) continue;
    const text = cleanText(v, MAX_TEXT);
    if (!out.includes(text)) out.push(text);
    if (out.length === MAX_TEXTS) break;
  }
  return out;
}

/** The signals some failure mode needs (diagnosis.needs): the only healthy signals the ranking reads. */
export function neededSignals(entries: CatalogEntry[] = getCatalog().entries): Set<string> {
  let needed = neededOf.get(entries);
  if (!needed) neededOf.set(entries, (needed = new Set(entries.flatMap((e) => (e.kind === "failure-mode" ? (e.diagnosis?.needs ?? []) : [])))));
  return needed;
}
const neededOf = new WeakMap<CatalogEntry[], Set<string>>();

/**
 * Whether texts name a cause of their own: a specific error class. A redacted one names none: kube-apiserver's
 * "[-]kms-providers failed: reason withheld", the plugin's bare "got unexpected healthz status: unhealthy" (wrappers).
 */
export function namesACause(texts: string[]): boolean {
  const { errorClasses } = getCatalog();
  return texts.some((text) => classifyText(text, errorClasses).some((hit) => !hit.generic));
}
