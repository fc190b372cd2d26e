import type { KmsAgreement, KmsCell, KmsMigration } from "./kms-types";
import { compareNatural } from "./natural-order";

// Whether the nodes agree on the key encryption key behind each keyID, and whether a KMS-to-KMS
// migration is under way (two keyIDs reported at once).

/** Per keyID, which nodes report which kekID; only fresh, in-cluster reports that name a kekID count. */
export function checkKekAgreement(cells: readonly KmsCell[]): KmsAgreement[] {
  const byKey = new Map<string, Map<string, string[]>>();
  for (const cell of cells) {
    if (cell.stale || cell.orphaned || !cell.kekID) continue;
    const keks = byKey.get(cell.keyID) ?? new Map<string, string[]>();
    // Appended in place: copying the list per cell made 5,000 nodes cost 12.5 million copies each compose.
    const nodes = keks.get(cell.kekID);
    if (nodes) nodes.push(cell.node);
    else keks.set(cell.kekID, [cell.node]);
    byKey.set(cell.keyID, keks);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => compareNatural(b, a))
    .map(([keyID, keks]) => ({
      keyID,
      kekIDs: [...keks.entries()].sort(([a], [b]) => compareNatural(a, b)).map(([kekID, nodes]) => ({ kekID, nodes: [...nodes].sort(compareNatural) })),
      agree: keks.size <= 1,
    }));
}

/** Two keyIDs reported at once means a KMS-to-KMS migration; stale reports count, as they are still what the node last ran. */
export function detectKmsMigration(cells: readonly KmsCell[]): KmsMigration {
  const keyIDs = [...new Set(cells.filter((c) => !c.orphaned).map((c) => c.keyID))].sort((a, b) => compareNatural(b, a));
  return { inProgress: keyIDs.length >= 2, keyIDs };
}
