import { NextResponse } from "next/server";
import { getMonitorRole, listClusterHealth, listMonitoredNames } from "@/lib/monitor/monitor";

export const dynamic = "force-dynamic";

export function GET() {
  const health = new Map(listClusterHealth().map((h) => [h.name, h]));
  const clusters = listMonitoredNames().map((name) => {
    const h = health.get(name);
    return {
      name,
      simulated: h?.simulated ?? null,
      summary: h?.summary ?? { state: "unknown", line: "not read yet" },
      checkedAt: h?.checkedAt ?? null,
      sourcesDown: h?.sources.filter((s) => !s.up).map((s) => s.name) ?? [],
      // leader: this process reads the cluster; follower: another process does, this one serves its results.
      monitor: getMonitorRole(name),
      url: `/api/v1/clusters/${name}/health`,
    };
  });
  return NextResponse.json({ clusters });
}
