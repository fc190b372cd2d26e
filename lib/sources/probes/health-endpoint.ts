import "server-only";
import { openBaoFetch, type OpenBaoFetch } from "./openbao-http";

/** A health endpoint's answer, or why it gave none. */
export type HealthAnswer = { status: number; text: string } | { unreachable: true; error: string };

/**
 * A health endpoint's status and body. One that does not answer is itself the observation (an
 * unreachable OpenBao, a silent bridge), not a failed read.
 */
export async function healthEndpoint(url: URL, get: OpenBaoFetch = openBaoFetch(undefined)): Promise<HealthAnswer> {
  try {
    const response = await get(url, { signal: AbortSignal.timeout(3000) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { unreachable: true, error: ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message };
  }
}
