// A refusal the API turns into its HTTP status: 404 unknown incident, 409 a transition that is not allowed.

export class IncidentError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}
