/** Errors with a stable code and a message meant for the user (no stack traces on the wire). */
export class ClipError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status for the companion's API (and the API v1 status for credit refusals). */
    readonly status = 400,
  ) {
    super(message);
  }
}

export class CancelledError extends ClipError {
  constructor() {
    super("cancelled", "The job was cancelled.", 409);
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === "AbortError");
}
