import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { addNote } from "@/lib/incidents/members/actions";
import { IncidentParams, NoteBody, NoteHeaders } from "@/lib/incidents/schemas";

/** Body: { text }; the actor is the signed-in person. An Idempotency-Key header makes a retried request add the note once (200 instead of 201). */
export const POST = route({
  role: "responder",
  action: "incident.note",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  headers: NoteHeaders,
  body: NoteBody,
  run: ({ params, headers, body, who }) => addNote(getDb(), params.id, { ...body, actor: actorOf(who), idempotencyKey: headers["Idempotency-Key"] }),
  reply: ({ added, event }) => json({ event: { ...event, id: Number(event.id) } }, { status: added ? 201 : 200 }),
});
