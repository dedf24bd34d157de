import type { ApiErrorCode } from "~/domain/api";
import type { LedgerRefusal } from "~/domain/ledger";

/** The one shape of every API error: { error: { code, message } }, and a ledger refusal's `reason` beside them. */
export function apiError(
  status: number,
  code: ApiErrorCode,
  message: string,
  headers?: HeadersInit,
  reason?: LedgerRefusal,
): Response {
  const error = reason ? { code, reason, message } : { code, message };
  return Response.json({ error }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

export function apiJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}
