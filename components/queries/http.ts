// The browser's one way to talk to Faultline's JSON API: reads (getJson, for the query definitions beside this
// file) and writes (postJson), where a refusal comes back as a message and the field errors, so forms can
// show them beside the fields and keep what was typed.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError("Faultline could not be reached; nothing was recorded. Try again.", 0);
  }
  const text = await response.text();
  let json: { error?: string; fields?: Record<string, string[]> } & Record<string, unknown> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    // not JSON: a proxy's or the server's error page
  }
  if (!response.ok) {
    const fields = json.fields ?? {};
    const detail = Object.entries(fields)
      .map(([k, v]) => `${k} ${v.join("; ")}`)
      .join("; ");
    const message = response.status >= 500 ? `the server failed (HTTP ${response.status}); nothing was recorded` : (json.error ?? `HTTP ${response.status}`);
    throw new ApiError(detail && json.error === "invalid request" ? `${message}: ${detail}` : message, response.status, fields);
  }
  return json as T;
}

export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json() as Promise<T>;
}
