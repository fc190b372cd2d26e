import { describe, expect, it } from "vitest";
import { ClusterConfigError, parseClustersFile } from "./config";

const errorOf = (text: string) => {
  try {
    parseClustersFile("clusters.yaml", text);
  } catch (error) {
    expect(error).toBeInstanceOf(ClusterConfigError);
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("cluster configuration", () => {
  it("reads clusters with defaults", () => {
    const clusters = parseClustersFile(
      "c.yaml",
      "clusters:\n  - name: prod-east\n    kubeconfig: /etc/faultline/prod-east.kubeconfig\n    openbao:\n      address: https://openbao.internal:8200\n",
    );
    expect(clusters).toEqual([
      {
        name: "prod-east",
        kubeconfig: "/etc/faultline/prod-east.kubeconfig",
        inCluster: false,
        intervalSeconds: 30,
        watchStallSeconds: 180,
        openbao: { address: "https://openbao.internal:8200", transitKey: "k8s-kek" },
      },
    ]);
  });

  it("names file, line and field of a bad value", () => {
    expect(errorOf("clusters:\n  - name: Prod East\n    kubeconfig: /k\n")).toMatch(/^clusters\.yaml:2: clusters\[0\]\.name: must be a lowercase name/);
    expect(errorOf("clusters:\n  - name: a\n    kubeconfig: /k\n    intervalSeconds: 0\n")).toBe(
      "clusters.yaml:4: clusters[0].intervalSeconds: must be 1-3600",
    );
    expect(errorOf("clusters:\n  - name: a\n    kubeconfig: /k\n    prometheus:\n      url: ftp://x\n")).toBe(
      "clusters.yaml:5: clusters[0].prometheus.url: must be an http:// or https:// URL",
    );
  });

  it("refuses duplicates, missing credentials and unknown fields", () => {
    expect(errorOf("clusters:\n  - name: a\n    kubeconfig: /k\n  - name: a\n    kubeconfig: /k\n")).toContain('clusters[1].name: duplicate cluster name "a"');
    expect(errorOf("clusters:\n  - name: a\n")).toContain("clusters[0].kubeconfig: give a kubeconfig path, or inCluster: true");
    expect(errorOf("clusters:\n  - name: a\n    kubeconfig: /k\n    kubeconfg: /typo\n")).toContain("kubeconfg");
  });

  it("reports a YAML syntax error with its line", () => {
    expect(errorOf("clusters:\n  - name: [a\n")).toMatch(/^clusters\.yaml:\d+: /);
  });
});
