import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { acknowledgeIncident } from "@/lib/incidents/actions";
import { errorResponse, fieldErrors, invalid, parseBody } from "@/lib/incidents/request";
import { AcknowledgeBody, IncidentId } from "@/lib/incidents/schemas";

/** Body: { actor, note? }. 409 when already acknowledged or resolved. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = IncidentId.safeParse((await params).id);
  if (!id.success) return invalid({ id: fieldErrors(id.error).body });
  const body = await parseBody(request, AcknowledgeBody);
  if ("response" in body) return body.response;
  try {
    return NextResponse.json({ incident: await acknowledgeIncident(getDb(), id.data, body.data) });
  } catch (error) {
    return errorResponse(error);
  }
}
