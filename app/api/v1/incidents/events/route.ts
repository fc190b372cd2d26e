import { onIncidentsChange } from "@/lib/monitor/changes";

export const dynamic = "force-dynamic";

/** Server-Sent Events: "change" (data: the incident ids, maybe empty) whenever incidents change; a comment every 15 s keeps proxies open. */
export async function GET(request: Request) {
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
      const stop = onIncidentsChange((ids) => send(`event: change\ndata: ${JSON.stringify({ ids })}\n\n`));
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
