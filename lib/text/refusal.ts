import { cleanText } from "./outside-text";

// A unit of work (one signal, one source, one incident decision) that failed alone: what it was and why,
// for the log and for the page. The others of its round carry on.

export interface Refusal {
  /** What was refused, for a person: "kms.plugin.unhealthy on master-1/2", "source kubeapiserver". */
  unit: string;
  /** The last line of the error (Prisma's messages start with the call site), cut short. */
  reason: string;
}

/** The reason of an error in one line, safe to log and show: no token, no refused character, at most 300 characters. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line =
    message
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? "unknown error";
  return cleanText(line.replace(/Bearer\s+\S+/gi, "Bearer ***"), 300);
}

/** "kms.plugin.unhealthy on master-1/2", with a hostile subject cut short. */
export function unitOf(signal: string, subject: string): string {
  return cleanText(`${signal} on ${subject}`, 200);
}
