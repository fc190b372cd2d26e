import { NextResponse } from "next/server";
import { notFound } from "@/lib/http/json";
import { getClusterHealth, listMonitoredNames } from "@/lib/monitor/monitor";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!listMonitoredNames().includes(name)) return notFound(`no cluster named "${name}"`, { name, clusters: listMonitoredNames() });
  const health = getClusterHealth(name);
  if (!health) return NextResponse.json({ name, summary: { state: "unknown", line: "not read yet" } }, { status: 202 });
  return NextResponse.json(health, { headers: { "Cache-Control": "no-store" } });
}
