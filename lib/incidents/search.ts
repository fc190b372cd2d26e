// Search text from people into terms for PostgreSQL's full-text search (queries.ts turns them into a tsquery).
// Like a web search box: words must all match, each as a prefix ("seal" finds "sealed"); "quoted words" match as
// a phrase, exactly; -word excludes; `or` between words accepts either side. Punctuation separates words, as it
// does in the stored document (migration 20261123160000_incident_history), so "node-1/kms-a" is the phrase
// node 1 kms a, found whichever way it was written.

export interface SearchTerm {
  /** Words separated by single spaces, punctuation removed. */
  words: string;
  /** The last word may be the start of a longer one. */
  prefix: boolean;
  exclude: boolean;
}

/** Groups of terms: a row matches when every term of one group matches. */
export type SearchQuery = SearchTerm[][];

export const MAX_TERMS = 16;
// The same characters the migration's incident_search_words() turns into spaces.
const PUNCTUATION = /[/._:\-@=,;()[\]{}"'<>|\\+*&^%$#!?~`]+/g;

const wordsOf = (text: string) => text.replace(PUNCTUATION, " ").replace(/\s+/g, " ").trim().toLowerCase();

/** Terms of a search; an empty list when nothing searchable is left. At most MAX_TERMS terms are kept. */
export function parseSearch(text: string): SearchQuery {
  const groups: SearchQuery = [[]];
  let kept = 0;
  // A quoted phrase (closed or running to the end), or a run of non-space characters.
  for (const match of text.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    if (kept >= MAX_TERMS) break;
    const [, minus, quoted, bare] = match;
    if (bare !== undefined && bare.toLowerCase() === "or") {
      if (groups[groups.length - 1].length > 0) groups.push([]);
      continue;
    }
    const exclude = quoted !== undefined ? minus === "-" : bare.startsWith("-") && bare.length > 1;
    const words = wordsOf(quoted ?? (exclude ? bare.slice(1) : bare));
    if (!words) continue;
    groups[groups.length - 1].push({ words, prefix: quoted === undefined, exclude });
    kept++;
  }
  // A group of exclusions alone would match nearly everything; it is dropped.
  return groups.filter((g) => g.some((t) => !t.exclude));
}
