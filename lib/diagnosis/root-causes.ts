import type { RootCauseGroup } from "@/lib/catalog/root-causes";
import { TEMPERATURE } from "./confidence";

// One answer per failure (docs/diagnosis.md, "Root causes and their facets"). Some catalog rows describe one world
// from different views: OpenBao sealed as the KMS plugin sees it, and as the protection stack sees it. Ranked apart,
// two views of one outage split its evidence and the second reads as a rival cause. Here a facet that is a suspect
// joins its group's best root that is one too, and the answer holds the share of both.

/** A view of the answer's outage from another part of the stack, with its own share of the evidence. */
export interface Facet {
  id: string;
  title: string;
  confidence: number;
  /** Its strongest evidence. */
  reason: string;
}

/** The group an answer's facets joined it through: why these rows are one world. */
export interface RootCause {
  id: string;
  title: string;
  reason: string;
}

interface Ranked {
  id: string;
  title: string;
  score: number;
  confidence: number;
  reason: string;
}

/**
 * Joins each facet that is not ruled out (a suspect whose needed signals are not seen ok) to the best root of its
 * groups that can lead: not ruled out, with a positive score. A joined answer's confidence is the sum of its members'
 * shares, its score the one that share stands for (the softmax's inverse), and the answers are ordered again by it.
 * What the root "does not explain" that a facet does is no longer held against the answer's account.
 */
export function joinFacets<T extends Ranked & { contradicts: string[]; supports: string[] }>(
  ranked: T[],
  groups: readonly RootCauseGroup[],
  ruledOut: (s: T) => boolean,
): (T & { facets?: Facet[]; rootCause?: RootCause })[] {
  const canLead = (s: T) => s.score > 0 && !ruledOut(s);
  if (groups.length === 0) return ranked;
  const byId = new Map(ranked.map((s) => [s.id, s]));
  const joined = new Map<string, { facets: T[]; group: RootCauseGroup }>();
  const gone = new Set<string>();
  for (const facet of ranked) {
    const lists = groups.filter((g) => g.facets.includes(facet.id));
    if (lists.length === 0 || ruledOut(facet)) continue;
    let best: { root: T; group: RootCauseGroup } | undefined;
    for (const group of lists)
      for (const id of group.roots) {
        const root = byId.get(id);
        if (root && canLead(root) && (!best || root.score > best.root.score)) best = { root, group };
      }
    if (!best) continue;
    const held = joined.get(best.root.id) ?? { facets: [], group: best.group };
    held.facets.push(facet);
    joined.set(best.root.id, held);
    gone.add(facet.id);
  }
  if (joined.size === 0) return ranked;
  const answers = ranked
    .filter((s) => !gone.has(s.id))
    .map((s) => {
      const held = joined.get(s.id);
      if (!held) return s;
      const confidence = held.facets.reduce((sum, f) => sum + f.confidence, s.confidence);
      // The score whose softmax share is the sum of the members' shares: T·ln Σ exp(s/T).
      const top = Math.max(s.score, ...held.facets.map((f) => f.score));
      const score = top + TEMPERATURE * Math.log([s, ...held.facets].reduce((sum, m) => sum + Math.exp((m.score - top) / TEMPERATURE), 0));
      // "does not explain "X" (class) on …" against the root, where a facet says "X": the answer accounts for it.
      const explained = (text: string) => {
        const said = /^does not explain (".*?" \(.*?\))/.exec(text)?.[1];
        return !!said && held.facets.some((f) => f.supports.some((t) => t.includes(said)));
      };
      return {
        ...s,
        contradicts: s.contradicts.filter((t) => !explained(t)),
        score: Math.round(score * 100) / 100,
        confidence: Math.round(confidence * 1000) / 1000,
        facets: held.facets.map((f) => ({ id: f.id, title: f.title, confidence: f.confidence, reason: f.reason })),
        rootCause: { id: held.group.id, title: held.group.title, reason: held.group.reason },
      };
    });
  return answers.sort((a, b) => b.confidence - a.confidence || b.score - a.score || a.id.localeCompare(b.id));
}

/** Whether an answer names a failure mode, as its root or one of its facets. */
export const answerNames = (answer: { id: string; facets?: { id: string }[] }, id: string) =>
  answer.id === id || (answer.facets ?? []).some((f) => f.id === id);
