import { announceIncidents } from "@/lib/live/bus";

/** Tells open incident pages once a write has committed (a rolled-back write announces nothing). */
export async function announced<T>(id: number, work: Promise<T>): Promise<T> {
  const result = await work;
  announceIncidents([id]);
  return result;
}
