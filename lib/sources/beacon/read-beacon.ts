import { isRecord } from "@/lib/sources/describe-input";

// The beacon source's typed reading: the bridge's health answer, or why the bridge did not answer. A value
// restored from a stored snapshot is checked here too; one of another shape reads as nothing known.

export type BeaconReading = { status: number; body: string } | { unreachable: true; error: string };

export function readBeacon(value: unknown): BeaconReading | undefined {
  if (!isRecord(value)) return undefined;
  if (value.unreachable === true && typeof value.error === "string") return { unreachable: true, error: value.error };
  if (typeof value.status === "number" && typeof value.body === "string") return { status: value.status, body: value.body };
  return undefined;
}
