import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/http/json";
import { renderJson, renderMarkdown } from "@/lib/incidents/postmortem";
import { getIncident } from "@/lib/incidents/queries";
import { fieldErrors, invalid } from "@/lib/incidents/request";
import { ExportQuery, IncidentId } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/** The postmortem: ?format=markdown (default) or json, as a download. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = IncidentId.safeParse((await params).id);
  const query = ExportQuery.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!id.success || !query.success) return invalid({ ...(id.success ? {} : { id: fieldErrors(id.error).body }), ...(query.success ? {} : fieldErrors(query.error)) });
  const detail = await getIncident(getDb(), id.data);
  if (!detail) return notFound(`no incident ${id.data}`);
  const name = `incident-${id.data}-postmortem`;
  if (query.data.format === "json") {
    return NextResponse.json(renderJson(detail), { headers: { "Content-Disposition": `attachment; filename="${name}.json"`, "Cache-Control": "no-store" } });
  }
  return new NextResponse(renderMarkdown(detail), {
    headers: { "Content-Type": "text/markdown; charset=utf-8", "Content-Disposition": `attachment; filename="${name}.md"`, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" },
  });
}
