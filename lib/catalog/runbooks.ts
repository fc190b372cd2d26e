import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import type { Runbook } from "@/lib/runbooks/schema";
import { formatPath, pathTo } from "@/lib/runbooks/walk";

export function listRunbooks(): Runbook[] {
  return getCatalog().runbooks;
}

export function getRunbook(id: string): Runbook | undefined {
  return listRunbooks().find((r) => r.id === id);
}

export interface RunbookLink {
  runbook: Runbook;
  node: string;
  label: string;
  /** ?path= value that opens the runbook at that step */
  path: string;
}

/** Every step of every runbook that links to a catalog entry: "runbooks that reach this entry". */
export function listRunbookLinksTo(entryId: string): RunbookLink[] {
  const links: RunbookLink[] = [];
  for (const runbook of listRunbooks()) {
    for (const node of runbook.nodes) {
      if (!node.catalog.includes(entryId)) continue;
      const path = pathTo(runbook, node.id);
      if (path) links.push({ runbook, node: node.id, label: node.label, path: formatPath(path) });
    }
  }
  return links;
}
