import type { CatalogEntry, FailureMode } from "@/lib/catalog/schema";
import { rankText, textIndex, type TextIndex } from "./suspect-text";

// Suspects: the catalog's failure modes ranked by how well they explain the incident. A failure mode an
// alert named comes first. Then each of its signals that is active counts, weighted by how rare the signal
// is in the catalog (kms.plugin.unhealthy detects 15 modes, openbao.sealed two) and by its state; words of the
// signals' details that the entry's own text uses ("token expired") separate modes that share signals; the
// severity flags (API-server start-up block, data loss) break near-ties.

export interface ActiveSignal {
  signal: string;
  subject: string;
  state?: string;
  detail?: string;
}

export interface Suspect {
  id: string;
  title: string;
  score: number;
  /** "detected by kms.plugin.unhealthy (active on master-1/2); blocks API-server start-up" */
  reason: string;
  signals: string[];
  startupBlock: FailureMode["startupBlock"]["level"];
  dataLoss: FailureMode["dataLoss"]["level"];
  /** Alert names that linked it explicitly. */
  linkedBy: string[];
}

export interface SuspectInput {
  active: ActiveSignal[];
  /** Catalog ids an alert named, with the alert that named each. */
  linked?: { id: string; by: string }[];
  entries: CatalogEntry[];
  limit?: number;
}

const STATE_WEIGHT: Record<string, number> = { critical: 1, warning: 0.7, unknown: 0.3 };
const STARTUP_WEIGHT = { yes: 0.6, possible: 0.3, "affected-data": 0.2, no: 0 } as const;
const DATA_LOSS_WEIGHT = { yes: 0.4, possible: 0.2, "confidentiality-loss": 0.2, no: 0 } as const;
const STARTUP_TEXT = {
  yes: "blocks API-server start-up",
  possible: "may block API-server start-up",
  "affected-data": "blocks start-up for the affected data",
  no: "",
} as const;
const DATA_LOSS_TEXT = { yes: "data-loss risk", possible: "possible data loss", "confidentiality-loss": "confidentiality loss", no: "" } as const;
/** Detail words alone must say this much before they make an entry a suspect without a matching signal. */
const TEXT_ONLY_THRESHOLD = 6;
const TEXT_WEIGHT = 1;

function listSubjects(subjects: Set<string>): string {
  const first: string[] = [];
  for (const s of subjects) if (first.push(s) >= 3) break;
  const shown = first.join(", ");
  return subjects.size > 3 ? `${shown} and ${subjects.size - 3} more` : shown;
}

const indexes = new WeakMap<CatalogEntry[], TextIndex>();

export function rankSuspects({ active, linked = [], entries, limit = 10 }: SuspectInput): Suspect[] {
  const modes = entries.filter((e): e is FailureMode => e.kind === "failure-mode");
  let index = indexes.get(entries);
  if (!index) indexes.set(entries, (index = textIndex(modes)));
  // A Set: an incident of one alert group can hold 100,000 subjects of one signal.
  const bySignal = new Map<string, { subjects: Set<string>; weight: number }>();
  for (const { signal, subject, state } of active) {
    const seen = bySignal.get(signal) ?? { subjects: new Set<string>(), weight: 0 };
    seen.subjects.add(subject);
    seen.weight = Math.max(seen.weight, STATE_WEIGHT[state ?? "critical"] ?? 1);
    bySignal.set(signal, seen);
  }
  const detectors = new Map<string, number>();
  for (const mode of modes) for (const s of mode.signals) detectors.set(s, (detectors.get(s) ?? 0) + 1);
  const rarity = (signal: string) => Math.log(1 + modes.length / (detectors.get(signal) ?? 1));
  const details = active.filter((a) => a.detail && (STATE_WEIGHT[a.state ?? "critical"] ?? 0) >= 0.7).map((a) => a.detail!);

  const suspects: Suspect[] = [];
  for (const mode of modes) {
    const matched = mode.signals.filter((s) => bySignal.has(s));
    const linkedBy = [...new Set(linked.filter((l) => l.id === mode.id).map((l) => l.by))];
    const text = rankText(index, mode.id, details);
    if (matched.length === 0 && linkedBy.length === 0 && text.score < TEXT_ONLY_THRESHOLD) continue;
    const signalScore = matched.reduce((sum, s) => sum + rarity(s) * bySignal.get(s)!.weight, 0);
    const score =
      (linkedBy.length > 0 ? 100 : 0) +
      2 * signalScore +
      TEXT_WEIGHT * text.score +
      STARTUP_WEIGHT[mode.startupBlock.level] +
      DATA_LOSS_WEIGHT[mode.dataLoss.level];
    const reasons = [
      linkedBy.length > 0 ? `named by the alert ${linkedBy.join(", ")}` : "",
      matched.length > 0 ? `detected by ${matched.map((s) => `${s} (active on ${listSubjects(bySignal.get(s)!.subjects)})`).join(" and ")}` : "",
      text.words.length > 0 ? `the detail says ${text.words.map((w) => `"${w}"`).join(", ")}` : "",
      STARTUP_TEXT[mode.startupBlock.level],
      DATA_LOSS_TEXT[mode.dataLoss.level],
    ].filter(Boolean);
    suspects.push({
      id: mode.id,
      title: mode.title,
      score: Math.round(score * 100) / 100,
      reason: reasons.join("; "),
      signals: matched,
      startupBlock: mode.startupBlock.level,
      dataLoss: mode.dataLoss.level,
      linkedBy,
    });
  }
  return suspects.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}

/** Whether a new ranking differs from the stored one in a way worth a timeline event (order or members). */
export function suspectsChanged(before: Pick<Suspect, "id">[], after: Pick<Suspect, "id">[]): boolean {
  return before.length !== after.length || before.some((s, i) => s.id !== after[i].id);
}
