import { route, text } from "@/lib/http/route";
import { renderAllMetrics } from "@/lib/exporter/collectors";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "machine",
  run: renderAllMetrics,
  reply: (m) => text(m.text, m.contentType),
});
