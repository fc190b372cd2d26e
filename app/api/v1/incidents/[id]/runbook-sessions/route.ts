import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { errorResponse, fieldErrors, invalid, parseBody } from "@/lib/incidents/request";
import { startRunbookSession } from "@/lib/incidents/runbook-sessions";
import { IncidentId, StartSessionBody } from "@/lib/incidents/schemas";

/** Starts a runbook for the incident. Body: { actor, runbookId? } (without one, the best match for its suspects). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = IncidentId.safeParse((await params).id);
  if (!id.success) return invalid({ id: fieldErrors(id.error).body });
  const body = await parseBody(request, StartSessionBody);
  if ("response" in body) return body.response;
  try {
    return NextResponse.json({ session: await startRunbookSession(getDb(), id.data, body.data) }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
