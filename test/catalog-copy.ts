import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { CatalogError, CATALOG_DIR, loadCatalog } from "@/lib/catalog/load";
import { formatIssue } from "@/lib/content/yaml-source";

/** A throw-away copy of the real catalog with one file edited; remove it with cleanup(). */
export function brokenCatalog(file: string, edit: (text: string) => string): { root: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), "faultline-catalog-"));
  cpSync(CATALOG_DIR, root, { recursive: true });
  const target = path.join(root, file);
  const before = readFileSync(target, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`the edit changed nothing in ${file}`);
  writeFileSync(target, after);
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The formatted errors loadCatalog reports for a catalog folder; fails the test if it loads. */
export function catalogErrors(root: string): string[] {
  try {
    loadCatalog(root);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return (error as CatalogError).issues.map(formatIssue);
  }
  throw new Error("the broken catalog was accepted");
}

export function lineOf(root: string, file: string, needle: string): number {
  const index = readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`"${needle}" not found in ${file}`);
  return index + 1;
}
