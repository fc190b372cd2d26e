import { onChange } from "@/lib/monitor/changes";
import { listMonitoredNames } from "@/lib/monitor/monitor";
import { notFound } from "@/lib/http/json";

export const dynamic = "force-dynamic";

/** Server-Sent Events: "change" whenever this cluster's health changes; a comment every 15 s keeps proxies open. */
export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!listMonitoredNames().includes(name)) return notFound(`no cluster named "${name}"`, { name });
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send("retry: 3000\n\n");
      const stop = onChange((cluster) => cluster === name && send(`event: change\ndata: ${JSON.stringify({ cluster })}\n\n`));
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), 15_000);
      cleanup = () => {
        stop();
        clearInterval(keepAlive);
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive" } });
}
