// A leader's writes for its cluster carry its lease term (docs/replicas.md): the database function faultline_fence
// (migration 20261128120000_monitor_leases) refuses a term that is no longer the live one, and holds the lease row
// shared until the write commits, so a follower's takeover waits for a write in flight instead of racing it.

export interface Fence {
  cluster: string;
  /** This process's lease holder id. */
  holder: string;
  term: number;
}

/** The statement a leader's transaction runs first; it raises FAULTLINE_STALE_TERM when the term is stale. */
export const FENCE_SQL = `SELECT faultline_fence($1, $2, $3::bigint) AS held`;

export const fenceArgs = (fence: Fence): [string, string, number] => [fence.cluster, fence.holder, fence.term];

/** Whether a write failed because another process leads the cluster now: the writer must stop acting as leader. */
export function isStaleTerm(error: unknown): boolean {
  return error instanceof Error && error.message.includes("FAULTLINE_STALE_TERM");
}

interface RawQuerier {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** Checks the fence inside a transaction (no fence: a process that leads alone, without a database lease). */
export async function checkFence(tx: RawQuerier, fence: Fence | undefined): Promise<void> {
  if (fence) await tx.$queryRawUnsafe(FENCE_SQL, ...fenceArgs(fence));
}
