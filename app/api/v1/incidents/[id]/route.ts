import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/http/json";
import { describeLive } from "@/lib/incidents/live";
import { getIncident } from "@/lib/incidents/queries";
import { fieldErrors, invalid } from "@/lib/incidents/request";
import { IncidentId } from "@/lib/incidents/schemas";
import { getClusterHealth } from "@/lib/monitor/monitor";

export const dynamic = "force-dynamic";

/** One incident: its fingerprints, timeline, suspects, runbook sessions, and what live data says now. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = IncidentId.safeParse((await params).id);
  if (!id.success) return invalid({ id: fieldErrors(id.error).body });
  const detail = await getIncident(getDb(), id.data);
  if (!detail) return notFound(`no incident ${id.data}`);
  const live = describeLive(detail, getClusterHealth(detail.incident.cluster)?.signals ?? []);
  return NextResponse.json({ ...detail, live }, { headers: { "Cache-Control": "no-store" } });
}
