// Where the shipped rules live, relative to the repository root.
export const RULE_FILES = {
  rules: "deploy/prometheus/faultline-rules.yml",
  manifest: "deploy/prometheus/faultline-prometheusrule.yaml",
  tests: "deploy/prometheus/faultline-rules.test.yml",
} as const;
