import { NextResponse } from "next/server";
import { notFound } from "@/lib/http/json";
import { getVersionedHealth, listMonitoredNames } from "@/lib/live/registry";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!listMonitoredNames().includes(name)) return notFound(`no cluster named "${name}"`, { name, clusters: listMonitoredNames() });
  // With the version of the last push, so the page can apply the pushes that follow (lib/live/health-push.ts).
  const health = getVersionedHealth(name);
  if (!health) return NextResponse.json({ name, summary: { state: "unknown", line: "not read yet" } }, { status: 202 });
  return NextResponse.json(health, { headers: { "Cache-Control": "no-store" } });
}
