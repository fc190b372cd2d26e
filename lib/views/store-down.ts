import "server-only";

// When the incident store (Postgres) cannot be read, the incident pages still render: they say so with the
// driver's reason (e.g. "Can't reach database server at 127.0.0.1:5432"), which an on-call can act on and the
// route's error page could not show (production hides a server error's text).

/** The reason as the page shows it: the message's last line; the lines above are the driver's stack. */
export function storeDownReason(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n").filter(Boolean).pop() ?? error.name) : String(error);
}

/** Runs a read of the store; a failure becomes `{ storeDown: reason }` instead of an error page. */
export async function readStore<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; storeDown: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, storeDown: storeDownReason(error) };
  }
}
