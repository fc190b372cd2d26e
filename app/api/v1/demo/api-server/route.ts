import { NextResponse } from "next/server";
import { z } from "zod";
import { getDemoCluster } from "@/lib/demo/runtime";

const Body = z.strictObject({ state: z.enum(["up", "down"], { message: "state must be up or down" }) });

/** Game day: take the simulated API server (and its endpoints) down, or bring it back on the same port. */
export async function POST(request: Request) {
  const demo = await getDemoCluster();
  if (!demo) return NextResponse.json({ error: "the demo cluster is not running" }, { status: 409 });
  const parsed = Body.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) return NextResponse.json({ error: "invalid request", fields: parsed.error.flatten().fieldErrors }, { status: 400 });
  const server = demo.sim.server;
  if (parsed.data.state === "down") await server.stop();
  else if (!server.running) await server.start();
  return NextResponse.json({ state: server.running ? "up" : "down", url: server.endpoints().url });
}
