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
  /** A phrase's punctuated words, joined as the document also holds them: they must be there too (an index lookup). */
  joined?: string[];
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

/** A word as the document holds it joined (at most 200 characters and 8 parts), or undefined. */
function joinedOf(text: string): string | undefined {
  const parts = wordsOf(text).split(" ");
  return parts.length > 1 && text.length <= 200 && parts.length <= 8 ? parts.join("") : undefined;
}

/** A bare word: one prefix (a punctuated one joined), or a phrase when too long to be held joined. */
function bareTerm(text: string, exclude: boolean): SearchTerm | undefined {
  const words = wordsOf(text);
  if (!words) return undefined;
  if (!words.includes(" ")) return { kind: "prefix", words, exclude };
  const joined = joinedOf(text);
  return joined ? { kind: "prefix", words: joined, exclude } : { kind: "phrase", words, exclude };
}

function phraseTerm(text: string, exclude: boolean): SearchTerm | undefined {
  const words = wordsOf(text);
  if (!words) return undefined;
  const joined = text.split(/\s+/).flatMap((chunk) => joinedOf(chunk) ?? []);
  return joined.length ? { kind: "phrase", words, joined, exclude } : { kind: "phrase", words, exclude };
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
    const term = quoted !== undefined ? phraseTerm(quoted, exclude) : bareTerm(exclude ? bare.slice(1) : bare, exclude);
    if (!term) continue;
    groups[groups.length - 1].push(term);
    kept++;
  }
  // A group of exclusions alone would match nearly everything; it is dropped.
  return groups.filter((g) => g.some((t) => !t.exclude));
}
