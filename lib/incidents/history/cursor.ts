// The list's keyset cursor: the last row's keys in the list's order (attention, listedAt, id), as base64url of
// "a.ms.id". Opaque to clients; decoding is strict, so anything this server did not hand out is refused.

export interface ListKey {
  attention: number;
  listedAt: Date;
  id: number;
}

const MAX_ID = 2_147_483_647;
// Dates PostgreSQL and JavaScript both hold: year 1970 to 9999.
const MAX_MS = 253_402_300_799_999;

export function encodeCursor(key: ListKey): string {
  return Buffer.from(`${key.attention}.${key.listedAt.getTime()}.${key.id}`, "utf8").toString("base64url");
}

/** The key a cursor holds, or undefined when it is not one this server could have given. */
export function decodeCursor(cursor: string): ListKey | undefined {
  if (!/^[A-Za-z0-9_-]{1,48}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // Re-encoding must give the same text: no padding games, no trailing bits.
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return undefined;
  const match = /^([0-8])\.(0|[1-9]\d{0,14})\.([1-9]\d{0,9})$/.exec(text);
  if (!match) return undefined;
  const [attention, ms, id] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ms > MAX_MS || id > MAX_ID) return undefined;
  return { attention, listedAt: new Date(ms), id };
}
