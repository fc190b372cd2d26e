// npm run rules:render: writes Faultline's alerting rules from the catalog to deploy/prometheus/ (the rule file and
// the PrometheusRule manifest, same content). Re-run after changing the catalog's signals or failure modes.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { loadCatalog } from "../lib/catalog/load";
import { renderRuleFiles } from "../lib/exporter/alert-rules";
import { RULE_FILES } from "../lib/exporter/rule-files";

const { rules, manifest } = renderRuleFiles(loadCatalog());
writeFileSync(path.join(process.cwd(), RULE_FILES.rules), rules);
writeFileSync(path.join(process.cwd(), RULE_FILES.manifest), manifest);
console.log(`wrote ${RULE_FILES.rules} and ${RULE_FILES.manifest}`);
