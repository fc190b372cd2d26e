import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

// "Builds when needed": a hash of every input of `next build`, recorded next to the build.

const INPUT_DIRS = ["app", "components", "lib", "catalog", "public", "prisma"];
const INPUT_FILES = ["package.json", "package-lock.json", "next.config.ts", "tsconfig.json", "instrumentation.ts", "instrumentation-client.ts"];
const SKIP = new Set(["generated", "node_modules"]);
export const HASH_FILE = path.join(".next", "faultline-source-hash");

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
}

export function hashSources(root: string): string {
  const files: string[] = [];
  for (const dir of INPUT_DIRS) walk(path.join(root, dir), files);
  for (const file of INPUT_FILES) if (existsSync(path.join(root, file))) files.push(path.join(root, file));
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

export function buildIsCurrent(root: string): boolean {
  const recorded = path.join(root, HASH_FILE);
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || !existsSync(recorded)) return false;
  return statSync(recorded).isFile() && readFileSync(recorded, "utf8").trim() === hashSources(root);
}
