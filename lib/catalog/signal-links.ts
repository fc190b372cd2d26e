import "server-only";
import { getCatalog } from "./queries";

// Where a live signal leads the on-call: the failure modes it detects and the runbooks that ask about it.
// One definition for the health page and the incident page, so both offer the same way in.

export interface SignalLink {
  catalog: { id: string; title: string }[];
  runbooks: { id: string; title: string }[];
}
export type SignalLinks = Record<string, SignalLink>;

/** At most this many failure modes per signal: the chips are a way in, the catalog page has the rest. */
export const CATALOG_LINKS_PER_SIGNAL = 6;

/** Links for the given signal ids (each once), or for every signal the catalog defines. */
export function signalLinks(signalIds?: Iterable<string>): SignalLinks {
  const { entries, runbooks, signals } = getCatalog();
  const ids = signalIds ? [...new Set(signalIds)] : signals.map((s) => s.id);
  return Object.fromEntries(
    ids.map((id) => [
      id,
      {
        catalog: entries
          .filter((e) => e.kind === "failure-mode" && e.signals.includes(id))
          .slice(0, CATALOG_LINKS_PER_SIGNAL)
          .map((e) => ({ id: e.id, title: e.title })),
        runbooks: runbooks.filter((r) => r.nodes.some((n) => n.signal === id)).map((r) => ({ id: r.id, title: r.title })),
      },
    ]),
  );
}
