// Times as an on-call reads them: an age ("4 min ago") beside the exact UTC time, the same on server and browser.

export function utc(iso: string | null | undefined): string {
  if (!iso) return "-";
  return `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function clock(iso: string): string {
  return new Date(iso).toISOString().slice(11, 19);
}

export function ago(iso: string, now: number): string {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (s < 0) return "just now";
  if (s < 90) return `${s}s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min ago`;
  return `${Math.round(s / 86400)} days ago`;
}

export const SEVERITY_TONE = { critical: "red", warning: "orange", info: "grey" } as const;
export const STATUS_TONE = { open: "red", acknowledged: "orange", resolved: "green" } as const;
export const toneOf = <T extends Record<string, "red" | "orange" | "grey" | "green">>(map: T, key: string) => map[key as keyof T] ?? "grey";

/** The server's render time, handed to the browser so the first client render shows the same ages. */
export function renderedAt(): number {
  return Date.now();
}
