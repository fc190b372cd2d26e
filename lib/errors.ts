import type { z } from "zod";

// What the domain refuses, by kind. The classes carry no HTTP status: the web edge (lib/http/error-reply.ts)
// turns each kind into one, in one place, so lib code never speaks HTTP.

/** Messages per field, by dotted path ("body" for the whole value). */
export type FieldErrors = Record<string, string[]>;

export interface ErrorDetails {
  /** Which fields are wrong, and how. */
  fields?: FieldErrors;
  /** More keys for the answer beside `error` (the id looked for, the clusters there are). */
  extra?: Record<string, unknown>;
}

export abstract class DomainError extends Error {
  readonly fields?: FieldErrors;
  readonly extra?: Record<string, unknown>;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.fields = details.fields;
    this.extra = details.extra;
  }
}

/** What was asked for does not exist. */
export class NotFound extends DomainError {}

/** The request is understood but clashes with the state things are in (already resolved, another step first). */
export class Conflict extends DomainError {}

/** The input is wrong; `fields` says where. */
export class Invalid extends DomainError {
  /** The usual refusal of a request whose fields are wrong. */
  static fields(fields: FieldErrors): Invalid {
    return new Invalid("invalid request", { fields });
  }
}

/** Not now: the caller should try again later (after `retryAfterSeconds` when given). */
export class Unavailable extends DomainError {
  readonly retryAfterSeconds?: number;

  constructor(message: string, details: ErrorDetails & { retryAfterSeconds?: number } = {}) {
    super(message, details);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** The field errors of a zod failure, by dotted path. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = Object.create(null); // a key may be "constructor"
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}
