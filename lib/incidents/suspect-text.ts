import type { FailureMode } from "@/lib/catalog/schema";

// Which words of the live signals' details a failure mode's own text uses, weighted by how rare each word
// is across the catalog: "token expired" points at the JWT entry, "permission denied" at the socket one.

const STOP = new Set(
  "the and for not but are was were has have had with from this that into than then them they its it's can cannot does did done will would should could been being when what which while where who why how all any each per via out off one two use used uses using only also more most less such other same some very just over under after before about again there their here plugin plugins kms api server node nodes error errors code desc rpc unavailable connection health report reports reported status statu check checks fail fails failed failing dial unix sock var run answer answers".split(
    " ",
  ),
);

export interface TextIndex {
  /** Per failure mode: its words (title words doubled), and its two-word phrases. */
  words: Map<string, Map<string, number>>;
  /** Inverse document frequency per word or phrase. */
  idf: Map<string, number>;
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .map((t) => (t.length > 4 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t))
    .filter((t) => t.length >= 3 && !/^\d+$/.test(t) && !STOP.has(t));
}

function terms(text: string): string[] {
  const words = tokens(text);
  return [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
}

export function textIndex(modes: FailureMode[]): TextIndex {
  const words = new Map<string, Map<string, number>>();
  const df = new Map<string, number>();
  for (const mode of modes) {
    const counts = new Map<string, number>();
    for (const t of terms(`${mode.cause} ${mode.impact} ${mode.detection}`)) counts.set(t, 1);
    for (const t of terms(mode.title)) counts.set(t, 2);
    words.set(mode.id, counts);
    for (const t of counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const idf = new Map([...df].map(([t, n]) => [t, Math.log(modes.length / n)]));
  return { words, idf };
}

/** How strongly the details point at this failure mode, and the words that did it (best first, at most 3). */
export function rankText(index: TextIndex, id: string, details: string[]): { score: number; words: string[] } {
  const own = index.words.get(id);
  if (!own || details.length === 0) return { score: 0, words: [] };
  const found = new Map<string, number>();
  for (const t of new Set(details.flatMap(terms))) {
    const weight = own.get(t);
    if (weight) found.set(t, weight * (index.idf.get(t) ?? 0) * (t.includes(" ") ? 1.5 : 1));
  }
  const ranked = [...found].sort((a, b) => b[1] - a[1]);
  // A phrase already counts its words: keep the words only where no phrase holds them.
  const phrases = ranked.filter(([t]) => t.includes(" ")).map(([t]) => t);
  const kept = ranked.filter(([t]) => t.includes(" ") || !phrases.some((p) => p.split(" ").includes(t)));
  return { score: kept.reduce((sum, [, w]) => sum + w, 0), words: kept.slice(0, 3).map(([t]) => t) };
}
