import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { viewOfMatrix } from "@/lib/signals/health-view";
import { describe, expect, it } from "vitest";
import { composeClusterHealth } from "@/lib/signals/cluster-health";
import type { Sources } from "@/lib/sources/sources";
import { readSources } from "@/lib/sources/readings";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { KmsMatrixTable } from "./kms-matrix-table";

// What the page first shows for a large cluster: the node that needs attention, not 60 healthy rows.

function matrixFor(nodes: number, failing?: string) {
  const cluster = new DemoCluster({ nodes, intervalMs: 30_000 });
  if (failing) setScenario(cluster, "kms-plugin-unavailable", true, { node: failing });
  const up = (name: string, value: unknown) => ({ name, up: true, value });
  const sources = {
    kubeapiserver: up("kubeapiserver", cluster.object("operator.openshift.io", "kubeapiservers", "cluster")),
    nodes: up("nodes", cluster.objects("", "nodes")),
  } as Sources;
  const health = composeClusterHealth({ name: "big", simulated: true, intervalSeconds: 30, readings: readSources(sources), now: cluster.now() });
  // The page holds the summary view of the matrix (lib/signals/health-view.ts), not every row.
  return { matrix: viewOfMatrix(health.matrix!), checkedAt: health.checkedAt };
}

const render = (nodes: number, failing?: string) =>
  renderToString(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(KmsMatrixTable, { ...matrixFor(nodes, failing), testId: "kms-matrix", source: { cluster: "big", server: "kube-apiserver", version: 1 } }),
    ),
  );
const rowsIn = (html: string) => [...html.matchAll(/data-node="([^"]+)"/g)].map((m) => m[1]);

describe("the KMS matrix of a large cluster", () => {
  it("lists only the nodes that need attention, and says how many healthy ones it left out", () => {
    const html = render(60, "master-7");
    expect(rowsIn(html)).toEqual(["master-7"]);
    expect(html).toContain("59 of 60 nodes report every plugin healthy and are not listed.");
    expect(html).toContain("Show healthy nodes");
    // Every node is counted above the table, the healthy ones too.
    expect(html.replace(/<!-- -->/g, "")).toMatch(
      /60 nodes<\/strong>: <span data-count="healthy">59 healthy<\/span>, <span data-count="unhealthy"[^>]*>1 unhealthy/,
    );
  });

  it("lists every node of a small cluster", () => {
    expect(rowsIn(render(3, "master-1"))).toEqual(["master-0", "master-1", "master-2"]);
  });
});
