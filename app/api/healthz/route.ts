import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/** Liveness: the process answers. Says nothing about the database (see /api/readyz). */
export function GET() {
  return NextResponse.json({ status: "ok", uptimeSeconds: Math.round(process.uptime()) });
}
