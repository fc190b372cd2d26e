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

  it("reads where the logs are, with their bounds, and refuses a hostile journal address or unit", () => {
    const [cluster] = parseClustersFile(
      "c.yaml",
      "clusters:\n  - name: a\n    kubeconfig: /k\n    logs:\n      tailLines: 100\n      journal:\n        unit: bao-kms-provider.service\n        url: https://{node}.example.internal:19531\n",
    );
    expect(cluster.logs).toEqual({
      namespace: "openshift-kube-apiserver",
      labelSelector: "app=openshift-kube-apiserver",
      containers: ["kube-apiserver", "kms-plugin*"],
      tailLines: 100,
      sinceSeconds: 3600,
      limitBytes: 262144,
      maxNodes: 3,
      journal: { unit: "bao-kms-provider.service", url: "https://{node}.example.internal:19531" },
    });
    const logs = (body: string) => errorOf(`clusters:\n  - name: a\n    kubeconfig: /k\n    logs:\n${body}`);
    expect(logs("      journal:\n        unit: bao-kms-provider.service\n")).toBe(
      "clusters.yaml:5: clusters[0].logs.journal.url: give url (with {node}) or nodes",
    );
    expect(logs("      journal:\n        unit: 'x.service; rm -rf /'\n        url: http://{node}:19531\n")).toContain(
      "clusters[0].logs.journal.unit: must be a systemd service name like bao-kms-provider.service",
    );
    expect(logs("      journal:\n        unit: a.service\n        url: https://user:pw@{node}:19531\n")).toContain(
      "must be an http:// or https:// URL without credentials",
    );
    expect(logs("      journal:\n        unit: a.service\n        nodes:\n          '../x': http://10.0.0.1:19531\n")).toContain("must be a node name");
    expect(logs("      limitBytes: 999999999\n")).toBe("clusters.yaml:5: clusters[0].logs.limitBytes: must be 1024-4194304");
    expect(logs("      containers: ['kms plugin']\n")).toContain("must be a container name, optionally ending in *");
  });

  it("reads labels, with DNS-prefixed keys and empty values, as Kubernetes writes them", () => {
    const [cluster] = parseClustersFile(
      "c.yaml",
      "clusters:\n  - name: a\n    kubeconfig: /k\n    labels:\n      env: prod\n      team.example.com/owner: payments-sre\n      canary: ''\n",
    );
    expect(cluster.labels).toEqual({ env: "prod", "team.example.com/owner": "payments-sre", canary: "" });
    expect(parseClustersFile("c.yaml", "clusters:\n  - name: a\n    kubeconfig: /k\n")[0].labels).toBeUndefined();
  });

  it("refuses a label key or value that is not Kubernetes' label syntax, naming the label and its line", () => {
    const labels = (body: string) => errorOf(`clusters:\n  - name: a\n    kubeconfig: /k\n    labels:\n${body}`);
    expect(labels("      env: prod east\n")).toBe(
      "clusters.yaml:5: clusters[0].labels.env: must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
    );
    expect(labels("      tier: 1\n")).toBe('clusters.yaml:5: clusters[0].labels.tier: must be text (quote a number or true: "1")');
    expect(labels("      'bad key': x\n")).toMatch(/^clusters\.yaml:5: clusters\[0\]\.labels\.bad key: must be a label key/);
    expect(labels("      '-lead': x\n")).toContain("clusters[0].labels.-lead: must be a label key");
    expect(labels("      'Team.Example.com/owner': x\n")).toContain("must be a label key");
    expect(labels(`      ${"k".repeat(64)}: x\n`)).toContain("must be a label key");
    expect(labels(`      env: ${"v".repeat(64)}\n`)).toContain("clusters[0].labels.env: must be at most 63");
    expect(labels("      env: '<script>'\n")).toContain("clusters[0].labels.env: must be at most 63");
    expect(labels("      env: [a, b]\n")).toContain("clusters[0].labels.env: must be text");
    const many = Array.from({ length: 33 }, (_, i) => `      k${i}: v\n`).join("");
    expect(labels(many)).toBe("clusters.yaml:4: clusters[0].labels: at most 32 labels");
  });

  it("reports a YAML syntax error with its line", () => {
    expect(errorOf("clusters:\n  - name: [a\n")).toMatch(/^clusters\.yaml:\d+: /);
  });
});
