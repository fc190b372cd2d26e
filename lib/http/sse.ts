// A Server-Sent Events response: `subscribe` is handed a function that sends one named event with the given
// data, and returns how to unsubscribe. A comment every 15 s keeps proxies from closing the stream;
// everything is released when the browser goes away.

export type SendEvent = (event: string, data: unknown) => void;

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/** Each push's frame, written once: every open stream is handed the same object (500 pages, one JSON.stringify). */
const frames = new WeakMap<object, Map<string, Uint8Array>>();

function frameOf(event: string, data: unknown): Uint8Array {
  const write = () => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  if (typeof data !== "object" || data === null) return write();
  let byEvent = frames.get(data);
  if (!byEvent) frames.set(data, (byEvent = new Map()));
  let frame = byEvent.get(event);
  if (!frame) byEvent.set(event, (frame = write()));
  return frame;
}

export function eventStream(request: Request, subscribe: (send: SendEvent) => () => void): Response {
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (frame: Uint8Array) => {
        try {
          controller.enqueue(frame);
        } catch {
          cleanup();
        }
      };
      send(encoder.encode("retry: 3000\n\n"));
      const stop = subscribe((event, data) => send(frameOf(event, data)));
      const keepAlive = setInterval(() => send(KEEP_ALIVE), 15_000);
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
