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
  const s = secondsBetween(from, now);
  if (s < -SKEW_NOISE_SECONDS) return `${-s}s in the future`;
  if (s < 0) return "just now";
  return `${span(from, now)} ago`;
}

/** How long from `from` until `now`: "45s", "12 min", "3 h 5 min", "2 days"; a time ahead of the clock is "0s". */
export function span(from: string, now: number | string): string {
  const s = Math.max(0, secondsBetween(from, now));
  if (s < 90) return `${s}s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  return `${Math.round(s / 86400)} days`;
}

const secondsBetween = (from: string, now: number | string) => Math.round(((typeof now === "number" ? now : Date.parse(now)) - Date.parse(from)) / 1000);
