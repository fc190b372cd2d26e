// npm run catalog:check: validates catalog/ and prints every error as file:line: message.
import { CatalogError, loadCatalog } from "../lib/catalog/load";
import { formatIssue } from "../lib/content/yaml-source";

try {
  const catalog = loadCatalog();
  const failureModes = catalog.entries.filter((e) => e.kind === "failure-mode").length;
  console.log(
    `catalog ok: ${catalog.entries.length} entries (${failureModes} failure modes, ${catalog.entries.length - failureModes} acceptance tests), ` +
      `${catalog.runbooks.length} runbooks, ${catalog.blastRadius.length} blast-radius pages, ${catalog.signals.length} signals, ${catalog.components.length} components, ` +
      `${catalog.alerts.length} alert mappings (${catalog.alerts.reduce((n, a) => n + a.alerts.length, 0)} alert names)`,
  );
} catch (error) {
  if (!(error instanceof CatalogError)) throw error;
  for (const issue of error.issues) console.error(formatIssue(issue));
  console.error(`catalog:check failed: ${error.issues.length} error${error.issues.length === 1 ? "" : "s"}`);
  process.exit(1);
}
