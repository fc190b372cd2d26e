import type { NotifyReceiver } from "@/lib/notify-config";
import { cleanText } from "@/lib/text/outside-text";
import { jsonBody, slackBody, type NotificationSnapshot } from "./payload";
import { isRetryableStatus, parseRetryAfter, type AttemptResult } from "./retry";

// One POST of one notification to one receiver. Nothing here logs the URL or the token: a Slack webhook's URL
// is its secret. Redirects are not followed (a receiver that moved is a configuration to fix, not to guess).

const REASON_BYTES = 200;
// fetch() refuses the ports browsers block (6000, 6667...); that will not change by retrying.
const BAD_PORT = "fetch refuses this port (one browsers block); use another port";

/** The first bytes of an answer, as text fit for the timeline. */
async function bodyExcerpt(response: Response): Promise<string> {
  try {
    const reader = response.body?.getReader();
    if (!reader) return "";
    const { value } = await reader.read();
    await reader.cancel().catch(() => undefined);
    return cleanText(
      new TextDecoder()
        .decode((value ?? new Uint8Array()).slice(0, REASON_BYTES))
        .replace(/\s+/g, " ")
        .trim(),
      REASON_BYTES,
    );
  } catch {
    return "";
  }
}

/** Why a request failed, without the URL (undici's messages can carry it). */
function networkReason(error: unknown, timeoutSeconds: number): string {
  const e = error as { name?: string; cause?: { code?: string; message?: string } };
  if (e.cause?.message === "bad port") return BAD_PORT;
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer within ${timeoutSeconds} s`;
  const code = e.cause?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host name not found";
  if (code) return `network error (${cleanText(code, 40)})`;
  return "network error";
}

export async function deliver(receiver: NotifyReceiver, snapshot: NotificationSnapshot, userAgent = "Faultline"): Promise<AttemptResult> {
  const body = receiver.format === "slack" ? slackBody(snapshot) : jsonBody(snapshot);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "idempotency-key": snapshot.idempotencyKey,
    "user-agent": userAgent,
  };
  if (receiver.token) headers.authorization = `Bearer ${receiver.token}`;
  let response: Response;
  try {
    response = await fetch(receiver.url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(receiver.timeoutSeconds * 1000),
    });
  } catch (error) {
    const reason = networkReason(error, receiver.timeoutSeconds);
    return { ok: false, permanent: reason === BAD_PORT, reason };
  }
  if (response.status >= 200 && response.status < 300) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: true, status: response.status };
  }
  // A receiver that echoes the request back must not put its token on the timeline.
  const excerpt = receiver.token ? (await bodyExcerpt(response)).replaceAll(receiver.token, "[token]") : await bodyExcerpt(response);
  const reason = `HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}`;
  if (response.status >= 300 && response.status < 400)
    return { ok: false, permanent: true, status: response.status, reason: `${reason} (redirects are not followed)` };
  if (!isRetryableStatus(response.status)) return { ok: false, permanent: true, status: response.status, reason };
  return { ok: false, permanent: false, status: response.status, reason, retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")) };
}
