import "server-only";
import { loadCatalog } from "./load";
import type { Catalog, CatalogEntry, Component, SignalDefinition } from "./schema";

// Reads for pages and route handlers. The catalog is immutable content, loaded once per process.

let cached: Catalog | undefined;

export function getCatalog(): Catalog {
  cached ??= loadCatalog();
  return cached;
}

export function getEntry(id: string): CatalogEntry | undefined {
  return getCatalog().entries.find((entry) => entry.id === id);
}

export function getComponentMap(): Map<string, Component> {
  return new Map(getCatalog().components.map((c) => [c.id, c]));
}

export function getSignalMap(): Map<string, SignalDefinition> {
  return new Map(getCatalog().signals.map((s) => [s.id, s]));
}

/** Entries that link to this one, plus those it links to, without repeats. */
export function listRelated(entry: CatalogEntry): CatalogEntry[] {
  const { entries } = getCatalog();
  const ids = new Set(entry.related);
  for (const other of entries) if (other.related.includes(entry.id)) ids.add(other.id);
  return entries.filter((other) => ids.has(other.id));
}

export interface CatalogCounts {
  entries: number;
  failureModes: number;
  acceptanceTests: number;
  startupBlockers: number;
  dataLossRisks: number;
  signals: number;
  components: number;
  runbooks: number;
}

export function countCatalog(): CatalogCounts {
  const { entries, signals, components, runbooks } = getCatalog();
  const failureModes = entries.filter((e) => e.kind === "failure-mode");
  return {
    entries: entries.length,
    failureModes: failureModes.length,
    acceptanceTests: entries.length - failureModes.length,
    startupBlockers: failureModes.filter((e) => e.startupBlock.level === "yes").length,
    dataLossRisks: failureModes.filter((e) => e.dataLoss.level === "yes" || e.dataLoss.level === "possible").length,
    signals: signals.length,
    components: components.length,
    runbooks: runbooks.length,
  };
}

/** Titles by id for links: catalog entries and runbooks. */
export function titleMaps(): { catalogTitles: Record<string, string>; runbookTitles: Record<string, string> } {
  const catalog = getCatalog();
  return {
    catalogTitles: Object.fromEntries(catalog.entries.map((e) => [e.id, e.title])),
    runbookTitles: Object.fromEntries(catalog.runbooks.map((r) => [r.id, r.title])),
  };
}
