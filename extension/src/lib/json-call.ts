import type { ZodType, ZodTypeDef } from "zod";
import { apiErrorSchema } from "../../../app/domain/api";
import { failureFromStatus } from "./failures";
import type { Failure, Result } from "./messages";

export interface JsonCall {
  method: string;
  /** Sent as `Authorization: Bearer …` when set. */
  bearer: string | null;
  body?: unknown;
  /** What to tell the user when nothing answers at all. */
  unreachable: Failure;
  /** What to tell the user when the answer is not what this build expects. */
  misunderstood: string;
}

/**
 * One JSON request from the background (to the companion or to the site's API): the answer is checked against its
 * schema, and an error answer becomes a failure the panel and the popup can show with what to do.
 */
export async function callJson<S, T = S>(
  url: string,
  call: JsonCall,
  schema: ZodType<S, ZodTypeDef, unknown>,
  pick: (value: S) => T = (value) => value as unknown as T,
): Promise<Result<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: call.method,
      headers: {
        ...(call.bearer ? { Authorization: `Bearer ${call.bearer}` } : {}),
        ...(call.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return { ok: false, failure: call.unreachable };
  }
  // 204 and empty bodies read as null.
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = apiErrorSchema.safeParse(json);
    const { code, message } = error.success ? error.data.error : { code: "", message: "" };
    return { ok: false, failure: failureFromStatus(res.status, code, message) };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: { kind: "other", message: call.misunderstood } };
  return { ok: true, value: pick(parsed.data) };
}
