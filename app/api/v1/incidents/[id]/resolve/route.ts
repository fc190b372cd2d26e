import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { resolveIncident } from "@/lib/incidents/actions";
import { errorResponse, fieldErrors, invalid, parseBody } from "@/lib/incidents/request";
import { IncidentId, ResolveBody } from "@/lib/incidents/schemas";

/** Body: { actor, resolution? }. 409 when already resolved. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = IncidentId.safeParse((await params).id);
  if (!id.success) return invalid({ id: fieldErrors(id.error).body });
  const body = await parseBody(request, ResolveBody);
  if ("response" in body) return body.response;
  try {
    return NextResponse.json({ incident: await resolveIncident(getDb(), id.data, body.data) });
  } catch (error) {
    return errorResponse(error);
  }
}
