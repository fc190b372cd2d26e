import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseFleetFilter } from "@/lib/fleet/fleet-filter";
import { LINE_LENGTH, TITLE_LENGTH, type FleetRow } from "@/lib/fleet/fleet-row";
import { FleetView } from "./fleet-view";

// The fleet as the server renders it: worst first, the filter of the address applied, a stale cluster shown as
// stale; and 100 clusters small enough that the page stays under 200 KB.

const NOW = Date.parse("2026-11-23T03:00:00Z");
const iso = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toISOString();

/**
 * A row as heavy as a real one gets (`failing`): three labels, a line at full length, four failing components, an
 * incident whose top suspect's title is at full length.
 */
function heavy(i: number, failing = i % 2 === 0): FleetRow {
  return {
    name: `prod-cluster-${String(i).padStart(3, "0")}`,
    simulated: false,
    labels: { env: i % 3 === 0 ? "staging" : "prod", region: `eu-west-${i % 4}`, "team.example.com/owner": "payments-sre" },
    state: failing ? "critical" : "ok",
    since: iso(60 * i),
    line: "x".repeat(LINE_LENGTH),
    failing: failing
      ? [
          { component: "KMS plugins", count: 12 },
          { component: "API server KMS check", count: 3 },
          { component: "OpenBao", count: 1 },
          { component: "Wrapped workloads", count: 40 },
        ]
      : [],
    moreFailing: failing ? 3 : 0,
    readAt: iso(1),
    incidents: failing
      ? {
          open: 3,
          top: { id: 1000 + i, severity: "critical", suspect: { id: "openbao-audit-backend-pressure", title: "s".repeat(TITLE_LENGTH) } },
        }
      : { open: 0, top: null },
  };
}

function render(rows: FleetRow[], raw: { state?: string; q?: string } = {}) {
  const client = new QueryClient();
  return renderToString(
    createElement(
      QueryClientProvider,
      { client },
      createElement(FleetView, { initial: { rows }, filter: parseFleetFilter(raw).filter, now: NOW, pollMs: 2000 }),
    ),
  );
}

const namesIn = (html: string) => [...html.matchAll(/data-cluster="([^"]+)"/g)].map((m) => m[1]);
/** What a reader sees: the text without tags. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, "");

describe("the fleet view", () => {
  const rows = [heavy(1), heavy(2), { ...heavy(3), state: "stale" as const, since: iso(600), readAt: iso(600) }, heavy(4)];

  it("lists the worst first, each name linking to the cluster's page", () => {
    const html = render(rows);
    expect(namesIn(html)).toEqual(["prod-cluster-004", "prod-cluster-002", "prod-cluster-003", "prod-cluster-001"]);
    expect(html).toContain('href="/clusters/prod-cluster-004"');
    expect(textOf(html)).toContain("4 clusters: 2 critical · 0 warning · 0 unknown · 1 stale · 1 ok");
    expect(textOf(html)).toContain("KMS plugins ×12, API server KMS check ×3, OpenBao, Wrapped workloads ×40, +3 more");
    expect(html).toContain('<a href="/incidents?cluster=prod-cluster-004">3 unresolved</a>');
    expect(html).toContain(`top suspect: <a href="/incidents/1004">${"s".repeat(TITLE_LENGTH)}</a>`);
  });

  it("shows a stale cluster's last reading, and a fresh one as live", () => {
    const html = render(rows);
    const stale = html.slice(html.indexOf('data-cluster="prod-cluster-003"'), html.indexOf('data-cluster="prod-cluster-001"'));
    expect(stale).toContain("10 min ago");
    expect(stale).toContain("2026-11-23 02:50:00 UTC");
    expect(stale).not.toContain(">live<");
    expect(html.slice(html.indexOf('data-cluster="prod-cluster-001"'))).toContain(">live<");
  });

  it("applies the address's filter and says how many of how many it shows", () => {
    const html = render(rows, { q: "env=staging" });
    expect(namesIn(html)).toEqual(["prod-cluster-003"]);
    expect(textOf(html)).toContain("4 clusters, 1 shown: 2 critical");
    expect(namesIn(render(rows, { state: "critical" }))).toEqual(["prod-cluster-004", "prod-cluster-002"]);
    expect(render(rows, { q: "nowhere" })).toContain("No cluster matches this filter.");
  });

  it("keeps 100 clusters under 200 KB with the rows the page carries for the browser, every one of them failing at full length", () => {
    const fleet = Array.from({ length: 100 }, (_, i) => heavy(i, true));
    const html = render(fleet);
    expect(namesIn(html)).toHaveLength(100);
    // The page carries the rows twice: as HTML, and as the client component's props (JSON inside a script, its
    // quotes escaped). The site's header, nav, footer and script tags come to about 20 KB (e2e/fleet.spec.ts
    // measures the whole page).
    const props = JSON.stringify({ rows: fleet });
    const page = html.length + props.length + (props.match(/"/g)?.length ?? 0) + 20 * 1024;
    console.log(
      `fleet of 100: HTML ${Math.round(html.length / 1024)} KB, props ${Math.round(props.length / 1024)} KB, page about ${Math.round(page / 1024)} KB`,
    );
    expect(page).toBeLessThan(200 * 1024);
  });
});
