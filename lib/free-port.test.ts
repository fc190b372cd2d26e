import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { onFreePort } from "./free-port";

// The race every self-started server has: the port is free when picked and taken before the server binds it.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Listens on 127.0.0.1:port: Node's real EADDRINUSE when something holds it already. */
const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

describe("onFreePort", () => {
  it("starts again on another port when the one it picked was taken in between", async () => {
    const tried: number[] = [];
    const server = await onFreePort(async (port) => {
      tried.push(port);
      if (tried.length === 1) servers.push(await listen(port)); // someone else takes it first
      const own = await listen(port);
      servers.push(own);
      return own;
    });
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
    expect((server.address() as { port: number }).port).toBe(tried[1]);
  });

  it("throws any other failure at once, and gives up on a taken port after the attempts allowed", async () => {
    let calls = 0;
    await expect(
      onFreePort(async () => {
        calls++;
        throw new Error("prometheus exited (code 1): bad config");
      }),
    ).rejects.toThrow("bad config");
    expect(calls).toBe(1);

    calls = 0;
    await expect(
      onFreePort(async (port) => {
        calls++;
        servers.push(await listen(port));
        await listen(port);
      }, 2),
    ).rejects.toThrow(/address already in use/);
    expect(calls).toBe(2);
  });
});
