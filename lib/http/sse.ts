// A Server-Sent Events response: `subscribe` is handed a function that sends one named event with the given
// data, and returns how to unsubscribe. A comment every 15 s keeps proxies from closing the stream;
// everything is released when the browser goes away.

export type SendEvent = (event: string, data: unknown) => void;

export function eventStream(request: Request, subscribe: (send: SendEvent) => () => void): Response {
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
      const stop = subscribe((event, data) => send(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
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
