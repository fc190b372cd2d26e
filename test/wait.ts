// Waiting in tests for something a server or a watch does on its own time, and reading what the demo's
// KMS health reporters wrote. Shared by the watch and demo-cluster tests.

/** A wait for `check`, polled every 20 ms, that fails naming `what` after `ms` (default: this file's bound). */
export const waitFor =
  (defaultMs: number) =>
  async (check: () => boolean, what: string, ms = defaultMs): Promise<void> => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

/** The message of node's KMSHealthReporter condition in an operator CR ("" when it has none). */
export const reporterMessage = (cr: unknown, node: string): string =>
  ((cr as { status?: { conditions?: { type: string; message: string }[] } })?.status?.conditions ?? []).find((c) => c.type === `KMSHealthReporter_${node}`)
    ?.message ?? "";
