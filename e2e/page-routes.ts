import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { scanAppRoutes } from "../lib/http/route-table";
import { sameOrigin, scenario } from "./helpers";

// Every page route of the app, read from app/ as the edge reads it, with real ids from the demo for its dynamic
// segments: a new page is checked by the specs that use this without being added by hand.

export interface PageRoute {
  /** The route pattern as Next names it: /incidents/[id]. */
  pattern: string;
  /** The address to open: /incidents/12. */
  path: string;
}

export interface SealedIncident {
  id: number;
  top: string;
}

/**
 * Seals OpenBao on the demo cluster and returns the unresolved incident it opens (or one already open for it),
 * once OpenBao sealed is its first suspect: the incident page then has suspects and a recovery to show.
 */
export async function sealedIncident(request: APIRequestContext, status = "open,acknowledged"): Promise<SealedIncident> {
  await scenario(request, "openbao-sealed");
  const end = Date.now() + 30_000;
  for (;;) {
    const body = (await (await request.get(`/api/v1/incidents?cluster=demo&status=${status}`)).json()) as {
      incidents: { id: number; topSuspect: { id: string } | null }[];
    };
    const found = body.incidents.find((i) => i.topSuspect?.id === "openbao-sealed");
    if (found) return { id: found.id, top: found.topSuspect!.id };
    if (Date.now() > end) throw new Error(`no incident (${status}) with OpenBao sealed as its first suspect 30 s after sealing OpenBao`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A sealed OpenBao's incident that nobody has acknowledged yet. One left unresolved by an earlier spec or run would
 * take the new signals instead (and may be acknowledged): OpenBao is unsealed, such incidents are resolved by hand
 * as incidents.spec.ts does, and the new sealing waits out the reopen window (3 s, playwright.config.ts).
 */
export async function openSealedIncident(request: APIRequestContext): Promise<SealedIncident> {
  await scenario(request, "openbao-sealed", { on: false });
  const body = (await (await request.get("/api/v1/incidents?cluster=demo&status=open,acknowledged")).json()) as { incidents: { id: number }[] };
  for (const { id } of body.incidents) {
    const resolved = await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ resolution: "left over from an earlier spec" }));
    if (!resolved.ok()) throw new Error(`resolving incident ${id}: ${resolved.status()} ${await resolved.text()}`);
  }
  if (body.incidents.length > 0) await new Promise((r) => setTimeout(r, 3_500));
  return sealedIncident(request, "open");
}

/** Every page route, its dynamic segments filled with a real id of the demo (by the route's first folder). */
export async function pageRoutes(request: APIRequestContext, incident: SealedIncident): Promise<PageRoute[]> {
  const components = (await (await request.get("/api/v1/blast-radius")).json()).pages.map((p: { id: string }) => p.id) as string[];
  const ids: Record<string, string> = {
    incidents: String(incident.id),
    catalog: incident.top,
    runbooks: "openbao-sealed-or-unreachable",
    "blast-radius": components[0],
    clusters: "demo",
  };
  return scanAppRoutes(path.resolve("app"))
    .filter((r) => r.kind === "page")
    .map((r) => {
      const folder = r.pattern.split("/")[1];
      const filled = r.pattern.replace(/\[[^\]]+\]/g, () => {
        const id = ids[folder];
        if (!id) throw new Error(`${r.pattern}: no demo id for its dynamic segment; add one for "${folder}" in e2e/page-routes.ts`);
        return encodeURIComponent(id);
      });
      return { pattern: r.pattern, path: filled };
    });
}

/** Opens a page and waits until it is drawn as a reader sees it: loaded, titled, no skeleton, a diagram bound. */
export async function openPage(page: Page, route: PageRoute): Promise<void> {
  const response = await page.goto(route.path);
  if (!response?.ok()) throw new Error(`${route.path}: ${response?.status()}`);
  await page.locator("h1").first().waitFor();
  await page.locator('[data-testid="route-loading"]').waitFor({ state: "detached" });
  // The runbook diagram's nodes get their role and name once the walker has bound them.
  if (route.pattern === "/runbooks/[id]") await page.waitForFunction(() => document.documentElement.dataset.runbookInteractive !== undefined);
}
