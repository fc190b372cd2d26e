import { NotFound } from "@/lib/errors";
import { errorResponse } from "./route";

// Kept for the event-stream route of a cluster, which answers before it streams; every other route handler
// answers through route.ts. Drop once that route throws NotFound into errorResponse itself.

export function notFound(message: string, extra: Record<string, unknown> = {}) {
  return errorResponse(new NotFound(message, { extra }));
}
