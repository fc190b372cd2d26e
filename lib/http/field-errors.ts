import type { z } from "zod";

// Field errors of a zod failure, by dotted path ("body" for the whole value). No Next.js import: the edge
// (lib/http/server.ts) loads modules that use this before Next.js is running.

export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = Object.create(null); // a key may be "constructor"
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}
