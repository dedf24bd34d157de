import type { ZodType, ZodTypeDef } from "zod";
import {
  apiErrorSchema,
  captureHoldResponseSchema,
  createHoldResponseSchema,
  meResponseSchema,
  releaseHoldResponseSchema,
  type ClipRequest,
  type Credits,
  type HoldRequest,
  type MeResponse,
} from "../../../../app/domain/api";
import type { ClipTerms } from "../../../../app/domain/clip-quality";
import { ClipError } from "../errors";

export const DEFAULT_API_BASE = "http://localhost:8787";
/** Attempts of one call while the server answers "busy". */
const BUSY_ATTEMPTS = 5;

export interface Hold {
  id: string;
  amount: number;
  expiresAt: string;
}

/** What the job cuts with, as the server decided it with the hold. */
export type Terms = ClipTerms;

/** API v1 credit calls: reserve before a cut, capture after the file is verified, release on failure/cancel. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  me(): Promise<MeResponse> {
    return this.call("GET", "/api/v1/me", undefined, undefined, meResponseSchema);
  }

  /** Reserves the clip's cost; given the source's height, the answer also holds the terms to cut with. */
  async reserve(clip: ClipRequest | HoldRequest, idempotencyKey: string): Promise<{ hold: Hold; terms: Terms }> {
    const res = await this.call("POST", "/api/v1/holds", clip, idempotencyKey, createHoldResponseSchema);
    return { hold: res.hold, terms: res.terms };
  }

  /** Charges the hold; answers the account's credits after the charge. */
  async capture(holdId: string, idempotencyKey: string): Promise<Credits> {
    const res = await this.call(
      "POST",
      `/api/v1/holds/${encodeURIComponent(holdId)}/capture`,
      {},
      idempotencyKey,
      captureHoldResponseSchema,
    );
    return res.credits;
  }

  async release(holdId: string, idempotencyKey: string): Promise<void> {
    await this.call(
      "POST",
      `/api/v1/holds/${encodeURIComponent(holdId)}/release`,
      {},
      idempotencyKey,
      releaseHoldResponseSchema,
    );
  }

  private async call<T>(
    method: string,
    path: string,
    body: unknown,
    idempotencyKey: string | undefined,
    schema: ZodType<T, ZodTypeDef, unknown>,
  ): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    let res: Response;
    let json: unknown;
    for (let attempt = 1; ; attempt++) {
      try {
        res = await this.fetchImpl(new URL(path, this.baseUrl), {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
      } catch (error) {
        throw new ClipError(
          "api_unreachable",
          `Cannot reach the ClipCut server at ${this.baseUrl}: ${(error as Error).message}`,
          502,
        );
      }
      json = await res.json().catch(() => null);
      // "busy" (503 + Retry-After): nothing was decided for this attempt; the same Idempotency-Key makes the retry
      // safe even if it was. See docs/api.md, "Retry rules".
      const busy = res.status === 503 && apiErrorSchema.safeParse(json).data?.error.code === "busy";
      if (!busy || attempt >= BUSY_ATTEMPTS || (method !== "GET" && !idempotencyKey)) break;
      const wait = Math.min(Number(res.headers.get("Retry-After")) || 1, 5) * 1000;
      await new Promise((r) => setTimeout(r, wait * (0.5 + Math.random() / 2)));
    }
    if (!res.ok) {
      const parsed = apiErrorSchema.safeParse(json);
      const code = parsed.success ? parsed.data.error.code : "api_error";
      const message = parsed.success ? parsed.data.error.message : `The ClipCut server answered ${res.status}.`;
      // The server's status and message reach the extension unchanged (402 credits, 403 plan limit, …).
      throw new ClipError(code, message, res.status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ClipError("api_error", `Unexpected answer from the ClipCut server for ${path}.`, 502);
    return parsed.data;
  }
}

/** Retries idempotent calls (capture/release carry an Idempotency-Key) on network or 5xx errors. */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 3, delayMs = 500): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (error) {
      last = error;
      if (error instanceof ClipError && error.status < 500) throw error;
      await new Promise((r) => setTimeout(r, delayMs * (i + 1)));
    }
  }
  throw last;
}
