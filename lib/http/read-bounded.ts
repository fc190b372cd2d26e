// Reading a request body under a byte bound; no Next.js import, so the edge server can use it too.

export type BodySize = { bytes: number; declared: boolean };

/**
 * The body's bytes as text, reading no more than `limit`: a declared Content-Length over it is refused before
 * reading, a streamed body is cut off as soon as it passes it.
 */
export async function readBounded(request: Request, limit: number): Promise<{ text: string } | { tooLarge: BodySize }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return { tooLarge: { bytes: declared, declared: true } };
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return { tooLarge: { bytes: size, declared: false } };
      }
      chunks.push(value);
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}
