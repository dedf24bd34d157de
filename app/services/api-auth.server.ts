import type { AppLoadContext } from "@remix-run/cloudflare";
import { BUSY_MESSAGE, fail, type LedgerFailure } from "~/db/ledger.server";
import { clipRequestSchema, idempotencyKeySchema, type ClipRequest } from "~/domain/api";
import { apiError } from "./api-response.server";
import { BUSY_RETRY_AFTER_S } from "./ledger.server";
import { apiCallerForToken, bearerToken, type ApiCaller } from "./api-tokens.server";

/**
 * Guard for API v1: a valid Bearer extension token, else a JSON 401 is thrown (503 "busy" when the owner's ledger,
 * which checks the token, cannot be reached).
 */
export async function requireApiUser(request: Request, context: AppLoadContext): Promise<ApiCaller> {
  const token = bearerToken(request);
  const caller = token ? await apiCallerForToken(context.cloudflare.env, token) : null;
  if (caller === "busy") throw ledgerError(fail(503, "busy", BUSY_MESSAGE));
  if (!caller)
    throw apiError(401, "unauthorized", "A valid extension token is required (Authorization: Bearer <token>).");
  return caller;
}

/** POSTs that move credits must say which attempt they are: a retry with the same key is answered, not repeated. */
export function requireIdempotencyKey(request: Request): string {
  const parsed = idempotencyKeySchema.safeParse(request.headers.get("Idempotency-Key") ?? "");
  if (!parsed.success) {
    throw apiError(400, "bad_request", "An Idempotency-Key header (8 to 128 visible ASCII characters) is required.");
  }
  // Namespaced so client keys can never collide with the server's derived keys (signup, renewal:…, …).
  return `api:${parsed.data}`;
}

export async function parseClipRequest(request: Request): Promise<ClipRequest> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw apiError(400, "bad_request", "The request body must be JSON.");
  }
  const parsed = clipRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw apiError(422, "invalid_input", `${where}${issue?.message ?? "Invalid clip."}`);
  }
  return parsed.data;
}

/** A ledger refusal as API v1 says it; "busy" tells the client when it may retry (with the same key). */
export function ledgerError(failure: LedgerFailure): Response {
  const retry = failure.code === "busy" ? { "Retry-After": String(BUSY_RETRY_AFTER_S) } : undefined;
  return apiError(failure.status, failure.code, failure.message, retry);
}
