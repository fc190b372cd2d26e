import "server-only";
import { signalLinks, type SignalLinks } from "@/lib/catalog/signal-links";
import { loadEnv } from "@/lib/env";
import type { HealthInView } from "@/lib/signals/health-view";
import { getVersionedView, listMonitoredNames } from "@/lib/live/registry";

// /health: every watched cluster's latest reading (or none yet), and where each signal leads.

export interface HealthPageData {
  pollSeconds: number;
  /**
   * In the order the clusters are configured; `health` (the summary view: counts, and only the rows and checks that need
   * attention) is missing until the first reading finishes. Its version is the last push's, so the page applies the pushes that follow.
   */
  clusters: { name: string; health?: HealthInView & { version: number } }[];
  links: SignalLinks;
}

export function loadHealthPage(): HealthPageData {
  return {
    pollSeconds: loadEnv().FAULTLINE_POLL_SECONDS,
    clusters: listMonitoredNames().map((name) => ({ name, health: getVersionedView(name) })),
    links: signalLinks(),
  };
}
