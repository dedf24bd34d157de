import { ipLimitKey } from "~/domain/ip-prefix";
import type { AppEnv } from "~/load-context";
import { apiError } from "./api-response.server";
import { clientIp } from "./rate-limit.server";

/**
 * API v1 limits, counted by the Workers Rate Limiting binding (numbers and periods in wrangler.toml, listed in
 * docs/security.md). The binding counts in the Worker's own location with no extra hop and no storage write, where
 * a Durable Object counter costs a round trip per request (reasoned from the design, not benchmarked). Its counts are per
 * location and approximate: right for flood limits, not for exact quotas. A missing binding limits nothing.
 */
type Limiter =
  "API_TOKEN_LIMITER" | "API_BAD_TOKEN_LIMITER" | "API_MINT_LIMITER" | "SOCKET_USER_LIMITER" | "SOCKET_IP_LIMITER";
/** The periods configured in wrangler.toml, in seconds: what Retry-After says. */
const PERIOD_S: Record<Limiter, number> = {
  API_TOKEN_LIMITER: 60,
  API_BAD_TOKEN_LIMITER: 60,
  API_MINT_LIMITER: 60,
  SOCKET_USER_LIMITER: 60,
  SOCKET_IP_LIMITER: 60,
};

/** Seconds to wait when `key` is over the limit, null when the request may go on. */
export async function overLimit(env: AppEnv, limiter: Limiter, key: string): Promise<number | null> {
  const binding = env[limiter] as RateLimit | undefined;
  if (!binding) return null;
  try {
    const { success } = await binding.limit({ key });
    return success ? null : PERIOD_S[limiter];
  } catch (error) {
    // A limiter outage must not take the API down with it.
    console.warn(JSON.stringify({ level: "warn", msg: "rate limiter failed", limiter, error: String(error) }));
    return null;
  }
}

export function rateLimitedResponse(retryAfterSeconds: number): Response {
  return apiError(429, "rate_limited", `Too many requests. Please wait ${retryAfterSeconds} seconds and try again.`, {
    "Retry-After": String(retryAfterSeconds),
  });
}

/**
 * IPs (IPv6: /64s) that spent their budget of bad tokens, until when: within an isolate they are answered 429
 * before the token is hashed or looked up, so a flood of random tokens costs neither a hash nor a D1 read.
 */
const blockedIps = new Map<string, number>();
const MAX_BLOCKED = 10_000;

export const badTokenKey = (request: Request) => ipLimitKey(clientIp(request));

export function badTokenBlocked(request: Request, now = Date.now()): number | null {
  const until = blockedIps.get(badTokenKey(request));
  if (until === undefined) return null;
  if (until <= now) {
    blockedIps.delete(badTokenKey(request));
    return null;
  }
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/** Counts a bad token against the caller's IP; the seconds to wait once over the budget, else null. */
export async function countBadToken(env: AppEnv, request: Request): Promise<number | null> {
  const key = badTokenKey(request);
  const wait = await overLimit(env, "API_BAD_TOKEN_LIMITER", key);
  if (wait !== null) {
    if (blockedIps.size >= MAX_BLOCKED) blockedIps.clear();
    blockedIps.set(key, Date.now() + wait * 1000);
  }
  return wait;
}
