import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadCatalog } from "@/lib/catalog/load";
import { deriveMetricSignals } from "@/lib/signals/derive-metric-signals";
import type { KmsMetricName, MetricSeries } from "@/lib/sources/kms-metric-types";
import { sampleKmsMetrics } from "@/test/sample-metrics";
import { entriesBySignal, renderRuleFiles, type RuleGroups } from "./alert-rules";
import { PLUGIN_SUBJECT } from "./kms-alerts";
import { RULE_FILES } from "./rule-files";

// The shipped rules (deploy/prometheus/): current with the catalog, the same in both files, naming real entries,
// accepted by Debian's promtool, and behaving as their unit tests say (promtool test rules).

const PROMTOOL = "/usr/bin/promtool";
const catalog = loadCatalog();
const read = (file: string) => readFileSync(path.join(process.cwd(), file), "utf8");
const run = promisify(execFile);

async function promtool(...args: string[]): Promise<string> {
  expect(existsSync(PROMTOOL), `${PROMTOOL} is missing: apt-get install --no-install-recommends prometheus`).toBe(true);
  return run(PROMTOOL, args, { cwd: process.cwd() }).then(
    (r) => r.stdout + r.stderr,
    (e: { stdout?: string; stderr?: string }) => {
      throw new Error(`promtool ${args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    },
  );
}

describe("the shipped alerting rules", () => {
  it("are what the catalog renders (npm run rules:render), and the PrometheusRule holds the same groups", () => {
    const rendered = renderRuleFiles(catalog);
    expect(read(RULE_FILES.rules), "deploy/prometheus is stale: run npm run rules:render").toBe(rendered.rules);
    expect(read(RULE_FILES.manifest), "deploy/prometheus is stale: run npm run rules:render").toBe(rendered.manifest);
    expect(parse(read(RULE_FILES.manifest)).spec).toEqual(parse(read(RULE_FILES.rules)));
  });

  it("name, in every alert, failure modes that exist and detect the alert's signal, and a page and runbook that exist", () => {
    const groups = parse(read(RULE_FILES.rules)) as RuleGroups;
    const entries = new Set(catalog.entries.map((e) => e.id));
    const runbooks = new Set(catalog.runbooks.map((r) => r.id));
    const signals = new Set(catalog.signals.map((s) => s.id));
    const detects = entriesBySignal(catalog);
    const rules = groups.groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThan(20);
    for (const rule of rules) {
      const { faultline_catalog_id: ids, faultline_signal: signal, faultline_subject: subject } = rule.labels;
      expect(signals.has(signal), `${rule.alert}: signal ${signal}`).toBe(true);
      expect(subject, rule.alert).toBeTruthy();
      expect(ids, `${rule.alert} has no faultline_catalog_id`).toBeTruthy();
      for (const id of ids.split(",")) {
        expect(entries.has(id), `${rule.alert}: catalog id ${id} does not exist`).toBe(true);
        expect(detects.get(signal), `${rule.alert}: ${id} does not list ${signal}`).toContain(id);
      }
      const page = rule.annotations.runbook_url.match(/\/catalog\/([a-z0-9-]+)$/)?.[1];
      expect(page && ids.split(",").includes(page), `${rule.alert}: runbook_url ${rule.annotations.runbook_url}`).toBe(true);
      if (rule.annotations.faultline_runbook_id) expect(runbooks.has(rule.annotations.faultline_runbook_id), rule.alert).toBe(true);
    }
  });

  it("pass promtool check rules, both the rule file and the PrometheusRule's spec", async () => {
    expect(await promtool("check", "rules", RULE_FILES.rules)).toMatch(/SUCCESS: \d+ rules found/);
    const dir = await mkdtemp(path.join(tmpdir(), "faultline-rules-"));
    try {
      const spec = path.join(dir, "spec.yml");
      await writeFile(spec, JSON.stringify(parse(read(RULE_FILES.manifest)).spec));
      expect(await promtool("check", "rules", spec)).toMatch(/SUCCESS: \d+ rules found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("pass their unit tests (promtool test rules): they fire after their `for` with the labels that join Faultline's member, and not while ok", async () => {
    expect(await promtool("test", "rules", RULE_FILES.tests)).toContain("SUCCESS");
  });

  it("use the subjects Faultline derives from the same series (the convention the unit tests hold the rules to)", () => {
    // The series of the rules' unit tests, through Faultline's own derivation.
    const series = (labels: Record<string, string>, value: number): MetricSeries => ({ labels, value, points: [] });
    const given: Partial<Record<KmsMetricName, MetricSeries[]>> = {
      tokenTtl: [series({ node: "master-1", key_id: "2", instance: "10.0.0.11:8443" }, 100), series({ instance: "10.0.0.12:8443" }, 60)],
      certificateTtl: [],
      circuitBreaker: [series({ node: "master-0", key_id: "1", instance: "10.0.0.10:8443" }, 1)],
      requestRate: [series({ node: "master-1", instance: "10.0.0.11:6443", provider_name: "kms-provider-1", method: "Decrypt" }, 1.1)],
      errorRate: [series({ node: "master-1", instance: "10.0.0.11:6443", provider_name: "kms-provider-1", method: "Decrypt" }, 0.1)],
      identityWrites: [series({ node: "master-0", instance: "10.0.0.10:6443", resource: "secrets" }, 5)],
      latencyP99: [series({ node: "master-2", instance: "10.0.0.12:6443", provider_name: "kms-provider-1", method: "Status" }, 2.476)],
    };
    // Only these series answered; the other metrics' queries did not.
    const metrics = sampleKmsMetrics(new Date());
    for (const metric of Object.values(metrics.metrics)) {
      metric.answered = metric.name in given;
      metric.series = given[metric.name] ?? [];
    }
    const firing = deriveMetricSignals(metrics, new Date())
      .filter((s) => s.state === "critical")
      .map((s) => `${s.id} ${s.subject}`);
    expect(firing).toEqual(
      expect.arrayContaining([
        "kms.auth.ttl-low master-1/2",
        "kms.auth.ttl-low 10.0.0.12:8443",
        "kms.plugin.unhealthy master-0/1/circuit-breaker",
        "kms.decrypt.errors master-1/kms-provider-1",
        "encryption.identity-fallback master-0/secrets",
        "kms.latency.high master-2/kms-provider-1",
      ]),
    );
    const tests = read(RULE_FILES.tests);
    for (const subject of [
      "master-1/2",
      "10.0.0.12:8443",
      "master-0/1/circuit-breaker",
      "master-1/kms-provider-1",
      "master-0/secrets",
      "master-2/kms-provider-1",
    ])
      expect(tests).toContain(`faultline_subject: ${subject}\n`);
  });

  it("are what the README's and docs/alertmanager.md's examples show: the token rule labels Faultline's <node>/<key_id> subject, and promtool accepts it", async () => {
    for (const doc of ["README.md", "docs/alertmanager.md"]) {
      const text = read(doc);
      const example = text.slice(text.indexOf("- alert: KMSPluginTokenExpiring"));
      expect(example.slice(0, 600), doc).toContain(`faultline_subject: "${PLUGIN_SUBJECT}"`);
      expect(example.slice(0, 600), doc).toContain("faultline_signal: kms.auth.ttl-low");
    }
    const docs = read("docs/alertmanager.md");
    const block = docs.slice(docs.indexOf("```yaml\ngroups:") + "```yaml\n".length);
    const dir = await mkdtemp(path.join(tmpdir(), "faultline-doc-rules-"));
    try {
      await writeFile(path.join(dir, "doc.yml"), block.slice(0, block.indexOf("```")));
      expect(await promtool("check", "rules", path.join(dir, "doc.yml"))).toMatch(/SUCCESS: 2 rules found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
