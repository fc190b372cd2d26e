// Search text from people into terms for PostgreSQL's full-text search (queries.ts turns them into a tsquery).
// Like a web search box: words must all match, each as a prefix ("seal" finds "sealed"); "quoted words" match as
// a phrase, exactly; -word excludes; `or` between words accepts either side. A punctuated word ("kms-a",
// "node-1/kms") is looked up joined ("kmsa:*", "node1kms:*"), as the stored document holds it (the migration
// 20261123160000_incident_history's incident_search_words), so a subject is found from any of its parts on.

export interface SearchTerm {
  /** prefix: one word (a punctuated one joined), matched as the start of a word; phrase: words in a row, exactly. */
  kind: "prefix" | "phrase";
  /** The word, or the phrase's words separated by single spaces; lowercase, no punctuation. */
  words: string;
  exclude: boolean;
}

/** Groups of terms: a row matches when every term of one group matches. */
export type SearchQuery = SearchTerm[][];

export const MAX_TERMS = 16;
// The same characters the migration's incident_search_words() turns into spaces.
const PUNCTUATION = /[/._:\-@=,;()[\]{}"'<>|\\+*&^%$#!?~`]+/g;

// Anything else that is neither a letter, a digit nor a space (a control character, U+FFFD, an arrow) separates
// terms, as PostgreSQL's parser separates words at it.
const OTHER = /[^\p{L}\p{N}\p{M}\s/._:\-@=,;()[\]{}"'<>|\\+*&^%$#!?~`]/gu;
const wordsOf = (text: string) => text.replace(PUNCTUATION, " ").replace(/\s+/g, " ").trim().toLowerCase();

/** A bare word: joined when the document holds it joined (at most 200 characters and 8 parts), else a phrase. */
function bareTerm(text: string, exclude: boolean): SearchTerm | undefined {
  const words = wordsOf(text);
  if (!words) return undefined;
  const parts = words.split(" ");
  if (parts.length === 1 || (text.length <= 200 && parts.length <= 8)) return { kind: "prefix", words: parts.join(""), exclude };
  return { kind: "phrase", words, exclude };
}

/** Terms of a search; an empty list when nothing searchable is left. At most MAX_TERMS terms are kept. */
export function parseSearch(text: string): SearchQuery {
  const groups: SearchQuery = [[]];
  let kept = 0;
  // A quoted phrase (closed or running to the end), or a run of non-space characters.
  for (const match of text.replace(OTHER, " ").matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    if (kept >= MAX_TERMS) break;
    const [, minus, quoted, bare] = match;
    if (bare !== undefined && bare.toLowerCase() === "or") {
      if (groups[groups.length - 1].length > 0) groups.push([]);
      continue;
    }
    const exclude = quoted !== undefined ? minus === "-" : bare.startsWith("-") && bare.length > 1;
    const words = quoted !== undefined ? wordsOf(quoted) : "";
    const term = quoted !== undefined ? (words ? { kind: "phrase" as const, words, exclude } : undefined) : bareTerm(exclude ? bare.slice(1) : bare, exclude);
    if (!term) continue;
    groups[groups.length - 1].push(term);
    kept++;
  }
  // A group of exclusions alone would match nearly everything; it is dropped.
  return groups.filter((g) => g.some((t) => !t.exclude));
}
