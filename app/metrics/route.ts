import { getMetrics } from "@/lib/metrics";

export const dynamic = "force-dynamic";

export async function GET() {
  const { registry } = getMetrics();
  return new Response(await registry.metrics(), { headers: { "Content-Type": registry.contentType } });
}
