import { CLUSTER_API_SIGNAL } from "./placement";

// An incident's title says what most likely happened: the top suspect's title, with what it is about in
// parentheses, or the signal's own title while nothing is suspected. Pure; membership.ts stores it.

export interface TitleInput {
  /** The signal and subject the incident opened on. */
  signal: string;
  subject: string;
  /** Its members that are not healthy. */
  active: { signal: string; subject: string }[];
  /** The ranked suspects, best first. */
  suspects: { id: string; title: string; signals: string[] }[];
  /** A signal's catalog title (with its id as the fallback). */
  signalTitle: (signal: string) => string;
  /** A failure mode's signals in the catalog's order (the suspect's own list is in the order evidence came). */
  modeSignals?: (id: string) => string[] | undefined;
}

/** The title the rules would give, and why. */
export function autoTitle({ signal, subject, active, suspects, signalTitle, modeSignals }: TitleInput): { title: string; why: string } {
  // No failure mode in the catalog explains an unreachable API server, and what is read through it is stale: it names the incident.
  if (active.some((m) => m.signal === CLUSTER_API_SIGNAL))
    return { title: `${signalTitle(CLUSTER_API_SIGNAL)} (cluster)`, why: `${CLUSTER_API_SIGNAL} is active` };
  const top = suspects[0];
  if (!top) return { title: `${signalTitle(signal)} (${subject})`, why: "no suspect" };
  // What it is about: the subjects of its first signal (in the catalog's order) that is active here.
  const first = (modeSignals?.(top.id) ?? top.signals).find((s) => active.some((m) => m.signal === s));
  const about = new Set(active.filter((m) => m.signal === first).map((m) => m.subject));
  const where = about.size === 1 ? [...about][0] : about.size > 1 ? "cluster" : subject;
  return { title: `${top.title} (${where})`, why: `top suspect ${top.id}` };
}
