import { createServer } from "node:net";

// Loopback ports for the servers Faultline and its tests start themselves (the embedded PostgreSQL, the demo's
// Prometheus, Alertmanager in tests).

/** A port on loopback nobody listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Whether a child process that answered "ready" on its port is still running a moment later. Another server that took
 * the port first answers the same ready check while this one exits on its failed bind: a ready answer is ours only if
 * the child has not exited within `ms`.
 */
export async function stillRunningAfterReady(exited: () => boolean, ms = 150): Promise<boolean> {
  await new Promise((r) => setTimeout(r, ms));
  return !exited();
}

/**
 * Starts a server on a free loopback port. The port is found before the server binds it, and another process (a
 * client's outgoing connection, another server) can take it in between: a start that fails with "address already in
 * use" is tried again on another port, up to `attempts` times; any other failure is thrown at once.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= attempts || !/address already in use/i.test(error instanceof Error ? error.message : String(error))) throw error;
    }
  }
}
