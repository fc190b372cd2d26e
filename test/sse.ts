/** Reads server-sent events from a route's body until one named `event` arrives; returns its data line. */
export async function nextEvent(reader: ReadableStreamDefaultReader<Uint8Array>, event: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before "${event}"`);
    text += decoder.decode(value, { stream: true });
    const match = text.match(new RegExp(`event: ${event}\\ndata: (.*)\\n\\n`));
    if (match) return match[1];
  }
}
