import { eventStream } from "@/lib/http/sse";
import { notFound } from "@/lib/http/json";
import { onChange } from "@/lib/monitor/changes";
import { listMonitoredNames } from "@/lib/monitor/monitor";

export const dynamic = "force-dynamic";

/** Server-Sent Events: "change" whenever this cluster's health changes. */
export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!listMonitoredNames().includes(name)) return notFound(`no cluster named "${name}"`, { name });
  return eventStream(request, (change) => onChange((cluster) => cluster === name && change({ cluster })));
}
