import type { ErrorClass } from "@/lib/catalog/schema";

// Which typed error classes a text shows: a detail, a condition message, a probe body. Classes are the
// catalog's (catalog/error-classes.yaml); each is recognised by the real wording of the system that wrote it.

/** Longest text looked at: error classes sit near the start; a 2 MB condition message is not scanned whole. */
export const SCAN_LIMIT = 8_192;

export interface ClassHit {
  id: string;
  title: string;
  generic: boolean;
  /** The words that matched, for "the text says …". */
  quote: string;
}

export function classifyText(text: string, classes: readonly ErrorClass[]): ClassHit[] {
  if (!text) return [];
  const scanned = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
  const hits: ClassHit[] = [];
  for (const c of classes) {
    for (const pattern of c.patterns) {
      const found = pattern.exec(scanned);
      if (!found) continue;
      hits.push({ id: c.id, title: c.title, generic: c.generic, quote: found[0].slice(0, 120) });
      break;
    }
  }
  return hits;
}
