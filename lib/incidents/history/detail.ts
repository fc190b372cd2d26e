import { NotFound } from "@/lib/errors";
import type { Signal } from "@/lib/signals/signal-model";
import { getClusterHealth } from "@/lib/live/registry";
import { describeLive } from "./live";
import { renderJson, renderMarkdown } from "./postmortem";
import { getIncident } from "./queries";
import type { Db } from "../tx";

// One incident as the API serves it: what is stored, and what live data says about it now.

/** The latest signals of a cluster, as last read (none before the first read). */
export function liveSignalsOf(cluster: string): Signal[] {
  return getClusterHealth(cluster)?.signals ?? [];
}

/** The incident with its member keys, timeline, suspects, runbook sessions, and `live`. */
export async function getIncidentDetail(db: Db, id: number) {
  const detail = await getIncident(db, id);
  if (!detail) throw new NotFound(`no incident ${id}`);
  return { ...detail, live: describeLive(detail, liveSignalsOf(detail.incident.cluster)) };
}

/** The postmortem as a file: Markdown, or JSON. */
export async function exportPostmortem(db: Db, id: number, format: "markdown" | "json") {
  const detail = await getIncident(db, id);
  if (!detail) throw new NotFound(`no incident ${id}`);
  const name = `incident-${id}-postmortem`;
  if (format === "json") return { name: `${name}.json`, json: renderJson(detail) };
  return { name: `${name}.md`, text: renderMarkdown(detail), type: "text/markdown; charset=utf-8" };
}
