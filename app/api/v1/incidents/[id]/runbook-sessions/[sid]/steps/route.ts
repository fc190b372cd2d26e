import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { errorResponse, fieldErrors, invalid, parseBody } from "@/lib/incidents/request";
import { recordRunbookStep } from "@/lib/incidents/runbook-sessions";
import { IncidentId, StepBody } from "@/lib/incidents/schemas";
import { getClusterHealth } from "@/lib/monitor/monitor";

/** Records the answer to the step the session stands at. Body: { actor, node, answer?, note?, evidence? }. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string; sid: string }> }) {
  const { id: rawId, sid: rawSid } = await params;
  const id = IncidentId.safeParse(rawId);
  const sid = IncidentId.safeParse(rawSid);
  if (!id.success || !sid.success) return invalid({ ...(id.success ? {} : { id: fieldErrors(id.error).body }), ...(sid.success ? {} : { sid: ["must be a session number"] }) });
  const body = await parseBody(request, StepBody);
  if ("response" in body) return body.response;
  try {
    const result = await recordRunbookStep(getDb(), id.data, sid.data, body.data, (cluster) => getClusterHealth(cluster)?.signals ?? []);
    return NextResponse.json(result, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
