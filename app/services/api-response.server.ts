import type { ApiErrorCode } from "~/domain/api";

/** The one shape of every API error: { error: { code, message } }. */
export function apiError(status: number, code: ApiErrorCode, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

export function apiJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}
