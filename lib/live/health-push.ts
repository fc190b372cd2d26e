import type { ClusterHealth } from "@/lib/health/cluster-health";

// PLACEHOLDER written by helper PAGES so the client compiles before SPINE-B lands: contract 2 of the issue-13
// plan with the simplest patch (the whole health). SPINE-B's lib/live/health-push.ts replaces this file.

export type HealthPatch = { replace: ClusterHealth };
export interface HealthPush {
  cluster: string;
  version: number;
  base: number | null;
  patch: HealthPatch;
}

export function diffHealth(previous: ClusterHealth | undefined, next: ClusterHealth, version: number, base: number | null): HealthPush {
  return { cluster: next.name, version, base: previous ? base : null, patch: { replace: next } };
}

export function applyHealthPush(
  cached: (ClusterHealth & { version: number }) | undefined,
  push: HealthPush,
): (ClusterHealth & { version: number }) | undefined {
  if (push.base === null) return { ...push.patch.replace, version: push.version };
  if (!cached || push.cluster !== cached.name || push.base !== cached.version) return undefined;
  return { ...push.patch.replace, version: push.version };
}
