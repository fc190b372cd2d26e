import "server-only";
import { getDb } from "@/lib/db/client";
import type { Signal } from "@/lib/signals/signal-model";
import { getClusterHealth, listMonitoredNames } from "@/lib/live/registry";
import { IncidentId } from "../schemas";

// What /runbooks/[id]?incident=&session= needs: the incident, its session of this runbook, and the cluster's
// live signals (without their evidence, which the server records itself).

export type WalkSession =
  | {
      ok: true;
      incidentId: number;
      title: string;
      status: string;
      cluster: string;
      sessionId: number;
      finished: boolean;
      path: string[];
      monitored: boolean;
      signals: Pick<Signal, "id" | "subject" | "state" | "detail" | "evidence">[];
    }
  | { ok: false; problem: string };

export async function loadWalkSession(runbookId: string, rawIncident: string, rawSession: string): Promise<WalkSession> {
  const incidentId = IncidentId.safeParse(rawIncident);
  const sessionId = IncidentId.safeParse(rawSession);
  if (!incidentId.success || !sessionId.success) return { ok: false, problem: "the incident or session in this link is not a number" };
  const session = await getDb().runbookSession.findFirst({ where: { id: sessionId.data, incidentId: incidentId.data }, include: { incident: true } });
  if (!session) return { ok: false, problem: `incident ${incidentId.data} has no runbook session ${sessionId.data}` };
  if (session.runbookId !== runbookId) return { ok: false, problem: `session ${session.id} walks runbook ${session.runbookId}, not this one` };
  const { incident } = session;
  const signals = (getClusterHealth(incident.cluster)?.signals ?? []).map(({ id, subject, state, detail }) => ({ id, subject, state, detail, evidence: null }));
  return {
    ok: true,
    incidentId: incident.id,
    title: incident.title,
    status: incident.status,
    cluster: incident.cluster,
    sessionId: session.id,
    finished: session.finishedAt !== null,
    path: session.path as string[],
    monitored: listMonitoredNames().includes(incident.cluster),
    signals,
  };
}
