import "server-only";
import { getCatalog, getComponentMap } from "@/lib/catalog/queries";
import { loadEnv } from "@/lib/env";
import { loadWalkSession, type WalkSession } from "@/lib/incidents/sessions/walk-session";
import { getVersionedHealth } from "@/lib/live/registry";
import { getRunbook } from "@/lib/catalog/runbooks";
import { titleMaps } from "@/lib/catalog/queries";
import { getDiagramSvg } from "@/lib/runbooks/view";
import { checkPath, stepsInOrder } from "@/lib/runbooks/walk";
import { readStore } from "./store-down";

// The runbook pages: the list (searchable in the browser), one runbook's guided walk (plain, or tied to an
// incident when the link names one), and its printable form.

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function loadRunbookList(rawQuery: string | string[] | undefined) {
  const { runbooks, components } = getCatalog();
  return {
    initialQuery: typeof rawQuery === "string" ? rawQuery : "",
    components: components.map(({ id, name }) => ({ id, name })),
    runbooks: runbooks.map((r) => ({
      id: r.id,
      title: r.title,
      symptom: r.symptom,
      components: r.components,
      steps: r.nodes.length,
      text: r.nodes.map((n) => `${n.label} ${n.text ?? ""} ${n.commands.map((c) => c.command).join(" ")}`).join(" "),
    })),
  };
}

/**
 * Undefined when no runbook has this id. Incident mode only when the link names an incident; the plain walk
 * does no extra work. When the incident store cannot be read, the plain walk still works and `storeDown`
 * gives the reason (the walk is what the on-call needs most).
 */
export async function loadRunbookPage(id: string, query: SearchParams) {
  const runbook = getRunbook(id);
  if (!runbook) return undefined;
  const { path, problem } = checkPath(runbook, one(query.path));
  const components = getComponentMap();
  const walker = {
    runbook: { id: runbook.id, title: runbook.title, root: runbook.root, nodes: runbook.nodes },
    svg: getDiagramSvg(runbook.id, runbook.flowchart),
    flowchart: runbook.flowchart,
    initialPath: path,
    problem,
    ...titleMaps(),
  };
  const incident = one(query.incident);
  const read = incident === undefined ? undefined : await readStore(() => loadWalkSession(runbook.id, incident, one(query.session) ?? ""));
  const session: WalkSession | undefined = read?.ok ? read.value : undefined;
  const storeDown = read && !read.ok ? read.storeDown : undefined;
  return {
    title: runbook.title,
    symptom: runbook.symptom,
    components: runbook.components.map((c) => ({ id: c, name: components.get(c)?.name ?? c })),
    walker,
    session,
    /** The incident's cluster's health as the walk's live answers start from (the browser keeps it current). */
    health: session?.ok && session.monitored ? getVersionedHealth(session.cluster) : undefined,
    storeDown,
    pollMs: loadEnv().FAULTLINE_POLL_SECONDS * 1000,
  };
}

/** Every step with its commands, in order from the start, with the titles its links need. */
export function loadRunbookPrint(id: string) {
  const runbook = getRunbook(id);
  if (!runbook) return undefined;
  return { runbook, steps: stepsInOrder(runbook), labels: new Map(runbook.nodes.map((n) => [n.id, n.label])), ...titleMaps() };
}
