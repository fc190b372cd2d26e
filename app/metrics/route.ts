import { route, text } from "@/lib/http/route";
import { renderMetrics } from "@/lib/metrics";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "machine",
  run: renderMetrics,
  reply: (m) => text(m.text, m.contentType),
});
