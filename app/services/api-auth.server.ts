import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ZodType, ZodTypeDef } from "zod";
import { clipRequestSchema, idempotencyKeySchema, type ClipRequest } from "~/domain/api";
import {
  BUSY_MESSAGE,
  fail,
  type LedgerFailure,
  type LedgerInput,
  type LedgerOpName,
  type LedgerOutcome,
  type LedgerResult,
} from "~/domain/ledger";
import { apiError } from "./api-response.server";
import { busyHeaders, ledger } from "./ledger.server";
import { apiCallerForToken, bearerToken, tokenClaim, type ApiCaller, type TokenClaim } from "./api-tokens.server";
import type { AppEnv } from "~/load-context";
import { badTokenBlocked, countBadToken, overLimit, rateLimitedResponse } from "./rate-limit-api.server";

const UNAUTHORIZED = "A valid extension token is required (Authorization: Bearer <token>).";

/**
 * Guard for API v1: a valid Bearer extension token, else a JSON 401 is thrown (503 "busy" when the owner's ledger,
 * which checks the token, cannot be reached; 429 rate_limited past the limits of docs/security.md).
 */
export async function requireApiUser(request: Request, context: AppLoadContext): Promise<ApiCaller> {
  const caller = await apiCallerOrError(request, context.cloudflare.env, bearerToken(request));
  if (caller instanceof Response) throw caller;
  return caller;
}

/**
 * The caller behind `token`, or the answer to give: 429 when the caller's IP spent its budget of bad tokens (then
 * without hashing or looking anything up) or the token its budget of requests, 401 for a bad token, 503 busy.
 * API v1 and the extension's realtime upgrade both go through here.
 */
export async function apiCallerOrError(
  request: Request,
  env: AppEnv,
  token: string | null,
): Promise<ApiCaller | Response> {
  const blocked = badTokenBlocked(request);
  if (blocked !== null) return rateLimitedResponse(blocked);
  const caller = token ? await apiCallerForToken(env, token) : null;
  if (caller === "busy") return ledgerError(fail("busy", BUSY_MESSAGE));
  if (!caller) {
    const wait = token ? await countBadToken(env, request) : null;
    if (wait !== null) return rateLimitedResponse(wait);
    return apiError(401, "unauthorized", UNAUTHORIZED);
  }
  const wait = await overLimit(env, "API_TOKEN_LIMITER", caller.tokenHash);
  return wait === null ? caller : rateLimitedResponse(wait);
}

/**
 * Guard for API v1 calls that move credits: who the token names, with no ledger call yet; `apiLedger` then checks
 * the token and runs the operation in one call to the owner's ledger.
 */
export async function requireApiClaim(request: Request, context: AppLoadContext): Promise<TokenClaim> {
  const env = context.cloudflare.env;
  const blocked = badTokenBlocked(request);
  if (blocked !== null) throw rateLimitedResponse(blocked);
  const token = bearerToken(request);
  const claim = token ? await tokenClaim(env, token) : null;
  if (!claim) {
    const wait = token ? await countBadToken(env, request) : null;
    throw wait !== null ? rateLimitedResponse(wait) : apiError(401, "unauthorized", UNAUTHORIZED);
  }
  const wait = await overLimit(env, "API_TOKEN_LIMITER", claim.tokenHash);
  if (wait !== null) throw rateLimitedResponse(wait);
  return claim;
}

/**
 * The token check and the ledger operation in one call; a refused token is a 401 (thrown). Always the caller's own
 * ledger: for a member of a working team it forwards clip operations to the payer's ledger itself (a hold opened
 * there settles there, even after the member left), so no D1 read decides which ledger pays.
 */
export async function apiLedger<K extends LedgerOpName>(
  context: AppLoadContext,
  claim: TokenClaim,
  name: K,
  input: LedgerInput<K>,
): Promise<LedgerResult<LedgerOutcome<K>>> {
  const result = await ledger(context.cloudflare.env, claim.id).withToken(claim.tokenHash, name, input);
  if (result === null) throw apiError(401, "unauthorized", UNAUTHORIZED);
  return result;
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

/** The JSON body as a clip request (or another clip-shaped schema: a hold's), a clear 4xx when it is not one. */
export async function parseClipRequest(request: Request): Promise<ClipRequest>;
export async function parseClipRequest<T>(request: Request, schema: ZodType<T, ZodTypeDef, unknown>): Promise<T>;
export async function parseClipRequest(
  request: Request,
  schema: ZodType<unknown, ZodTypeDef, unknown> = clipRequestSchema,
): Promise<unknown> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw apiError(400, "bad_request", "The request body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw apiError(422, "invalid_input", `${where}${issue?.message ?? "Invalid clip."}`);
  }
  return parsed.data;
}

/**
 * A ledger refusal as API v1 says it, its reason included for clients to branch on; "busy" tells the client when it
 * may retry (with the same key).
 */
export function ledgerError(failure: LedgerFailure): Response {
  // Admin-only refusals never come from an API operation; should one, it is a refusal like any other.
  const code = failure.code === "step_up_required" || failure.code === "balance_changed" ? "forbidden" : failure.code;
  const headers = busyHeaders(failure) as Record<string, string>;
  return apiError(failure.status, code, failure.message, headers, failure.reason);
}
