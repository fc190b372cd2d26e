// Waiting in tests for something a server or a watch does on its own time, and reading what the demo's
// KMS health reporters wrote. Shared by the watch and demo-cluster tests.

/**
 * How much longer than its default bound a wait may take before it fails. A wait returns as soon as its check holds,
 * so this costs nothing when all is well; it keeps a shared, busy machine (CI beside other work) from failing a test
 * whose behaviour is right but late. A bound given at the call is the behaviour under test ("up again before its
 * 4 s backoff ends") and is kept exact.
 */
export const WAIT_SLACK = 3;

/** A wait for `check`, polled every 20 ms, that fails naming `what` after `ms`, or the default bound times WAIT_SLACK. */
export const waitFor =
  (defaultMs: number) =>
  async (check: () => boolean, what: string, ms = defaultMs * WAIT_SLACK): Promise<void> => {
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
