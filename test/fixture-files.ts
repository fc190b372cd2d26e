import { readFileSync } from "node:fs";
import path from "node:path";

// Files the unit tests read: captured answers under test/fixtures/, and files of the repository itself.
// Tests of pure code (lib/model, lib/signals) read them through here, so that code imports no file I/O.

const ROOT = path.resolve(import.meta.dirname, "..");

/** A fixture's text (test/fixtures/<name>). */
export const fixtureText = (name: string) => readFileSync(path.join(ROOT, "test/fixtures", name), "utf8");

/** A file of the repository, by its path from the root (e.g. catalog/signals.yaml). */
export const repoFile = (relative: string) => readFileSync(path.join(ROOT, relative), "utf8");
