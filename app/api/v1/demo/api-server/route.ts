import { NextResponse } from "next/server";
import { getDemoCluster } from "@/lib/demo/runtime";
import { ApiServerChange, DEMO_BODY_LIMIT } from "@/lib/demo/schemas";
import { conflict } from "@/lib/http/json";
import { parseBody } from "@/lib/http/read-json";

/** Demo cluster: take the simulated API server (and its endpoints) down, or bring it back on the same port. */
export async function POST(request: Request) {
  const body = await parseBody(request, ApiServerChange, DEMO_BODY_LIMIT);
  if ("response" in body) return body.response;
  const demo = await getDemoCluster();
  if (!demo) return conflict("the demo cluster is not running");
  const server = demo.sim.server;
  if (body.data.state === "down") await server.stop();
  else if (!server.running) await server.start();
  return NextResponse.json({ state: server.running ? "up" : "down", url: server.endpoints().url });
}
