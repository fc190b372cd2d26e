import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { addNote } from "@/lib/incidents/actions";
import { errorResponse, fieldErrors, invalid, parseBody } from "@/lib/incidents/request";
import { IncidentId, NoteBody } from "@/lib/incidents/schemas";

/** Body: { actor, text }. An Idempotency-Key header makes a retried request add the note once (200 instead of 201). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = IncidentId.safeParse((await params).id);
  if (!id.success) return invalid({ id: fieldErrors(id.error).body });
  const key = request.headers.get("idempotency-key")?.trim();
  if (key !== undefined && (key.length === 0 || key.length > 200)) return invalid({ "Idempotency-Key": ["must be 1-200 characters"] });
  const body = await parseBody(request, NoteBody);
  if ("response" in body) return body.response;
  try {
    const { added, event } = await addNote(getDb(), id.data, { ...body.data, idempotencyKey: key });
    return NextResponse.json({ event: { ...event, id: Number(event.id) } }, { status: added ? 201 : 200 });
  } catch (error) {
    return errorResponse(error);
  }
}
