// Times as an on-call reads them: an age ("4 min ago") beside the exact UTC time, the same on server and
// browser. The one formatter for every page (incidents, health, the KMS matrix).

/** Closer than this, two clocks disagreeing is noise ("just now"); beyond it, the page says the time is ahead. */
const SKEW_NOISE_SECONDS = 60;

export function utc(iso: string | null | undefined): string {
  if (!iso) return "-";
  return `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function clock(iso: string): string {
  return new Date(iso).toISOString().slice(11, 19);
}

/** How long before `now` (epoch ms or ISO) the time `from` was; "never" when there is none. */
export function ago(from: string | null | undefined, now: number | string): string {
  if (!from) return "never";
  const s = Math.round(((typeof now === "number" ? now : Date.parse(now)) - Date.parse(from)) / 1000);
  if (s < -SKEW_NOISE_SECONDS) return `${-s}s in the future`;
  if (s < 0) return "just now";
  if (s < 90) return `${s}s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min ago`;
  return `${Math.round(s / 86400)} days ago`;
}
