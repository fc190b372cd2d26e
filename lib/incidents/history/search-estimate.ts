import type { SearchQuery, SearchTerm } from "./search";
import type { Db } from "../tx";

// How many incidents a search may match, to choose its plan (queries.ts), from the words ANALYZE found most
// common in the search documents (10,000 of them: the migration raises the statistics target). An upper bound,
// unlike the planner's estimate: the planner multiplies the words of a phrase and of a group as if independent,
// and they are not ("kube apiserver", a subject's parts). Read once a minute per process.

interface WordStats {
  read: number;
  rows: number;
  freq: Map<string, number>;
  /** What a word not among the common ones may have at most. */
  floor: number;
}

const TTL_MS = 60_000;
let cached: WordStats | undefined;

async function wordStats(db: Db): Promise<WordStats> {
  if (cached && Date.now() - cached.read < TTL_MS) return cached;
  const [row] = await db.$queryRaw<{ rows: number; elems: string[] | null; freqs: number[] | null }[]>`
    SELECT c."reltuples"::float8 AS "rows", array_to_json(s."most_common_elems"::text::text[]) AS "elems", s."most_common_elem_freqs"::float8[] AS "freqs"
    FROM pg_class c LEFT JOIN pg_stats s ON s."schemaname" = current_schema() AND s."tablename" = 'incident_search' AND s."attname" = 'document'
    WHERE c."oid" = 'incident_search'::regclass`;
  const elems = row?.elems ?? [];
  const freqs = row?.freqs ?? [];
  // After the frequencies come their minimum and maximum (and the share of empty documents).
  cached = { read: Date.now(), rows: Math.max(0, row?.rows ?? 0), freq: new Map(elems.map((e, i) => [e, freqs[i]])), floor: freqs[elems.length] ?? 0 };
  return cached;
}

function termShare(stats: WordStats, term: SearchTerm): number {
  const exact = (word: string) => stats.freq.get(word) ?? stats.floor;
  if (term.kind === "phrase") return Math.min(...term.words.split(" ").map(exact), ...(term.joined ?? []).map(exact));
  let sum = stats.floor;
  for (const [word, f] of stats.freq) if (word.startsWith(term.words)) sum += f;
  return Math.min(1, sum);
}

/** At most how many incidents `q` matches, by the last ANALYZE (0 before any). */
export async function estimateMatches(db: Db, q: SearchQuery): Promise<number> {
  const stats = await wordStats(db);
  const share = q.reduce((total, group) => total + Math.min(...group.filter((t) => !t.exclude).map((t) => termShare(stats, t))), 0);
  return Math.min(1, share) * stats.rows;
}
