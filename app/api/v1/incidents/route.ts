import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db/client";
import { listIncidents } from "@/lib/incidents/queries";
import { fieldErrors, invalid } from "@/lib/incidents/request";
import { IncidentListQuery } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/** Incidents, open first; ?cluster=&status=open,acknowledged&severity=critical&limit= */
export async function GET(request: NextRequest) {
  const parsed = IncidentListQuery.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!parsed.success) return invalid(fieldErrors(parsed.error));
  const incidents = await listIncidents(getDb(), parsed.data);
  return NextResponse.json({ count: incidents.length, incidents }, { headers: { "Cache-Control": "no-store" } });
}
