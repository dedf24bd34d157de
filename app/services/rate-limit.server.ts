import { data } from "@remix-run/cloudflare";
import { countHit, uncountHit } from "~/db/rate-limits.server";
import { ipLimitKey } from "~/domain/ip-prefix";

export interface RateLimitRule {
  /** What is limited, e.g. "contact" or "signin". */
  name: string;
  limit: number;
  windowMs: number;
}

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The fixed window a moment falls in, and the answer for a subject that is over the limit in it. */
function windowOf(rule: RateLimitRule, now = Date.now()) {
  const start = Math.floor(now / rule.windowMs) * rule.windowMs;
  const blocked = (): RateLimitResult => ({
    ok: false,
    retryAfterSeconds: Math.max(1, Math.ceil((start + rule.windowMs - now) / 1000)),
  });
  return { start, blocked };
}

/** `now` is the caller's clock (tests pass their own). */
export async function hitRateLimit(
  db: D1Database,
  rule: RateLimitRule,
  subject: string,
  now = Date.now(),
): Promise<RateLimitResult> {
  const { start: windowStart, blocked } = windowOf(rule, now);
  const count = await countHit(db, counterKey(rule, subject), windowStart);
  return count <= rule.limit ? { ok: true } : blocked();
}

/**
 * Several limits on one request (e.g. per IP and per e-mail address), in order: the first one the caller is over, or
 * ok. A rule is counted only when the ones before it let the caller through.
 */
export async function hitRateLimits(
  db: D1Database,
  checks: readonly (readonly [RateLimitRule, string])[],
): Promise<RateLimitResult> {
  for (const [rule, subject] of checks) {
    const result = await hitRateLimit(db, rule, subject);
    if (!result.ok) return result;
  }
  return { ok: true };
}

/** Gives back one counted attempt in the current window (e.g. a password attempt that turned out right). */
export async function refundRateLimit(db: D1Database, rule: RateLimitRule, subject: string): Promise<void> {
  await uncountHit(db, counterKey(rule, subject), windowOf(rule).start);
}

/** An IPv6 subject counts by its /64 (app/domain/ip-prefix.ts); e-mails, ids and IPv4 addresses as they are. */
const counterKey = (rule: RateLimitRule, subject: string) => `${rule.name}:${ipLimitKey(subject)}`;

/** The caller's IP as Cloudflare reports it ("local" under wrangler dev without the header). */
export function clientIp(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "local";
}

export function retryMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return seconds < 90
    ? `Too many attempts. Please wait ${seconds} seconds and try again.`
    : `Too many attempts. Please wait ${minutes} minutes and try again.`;
}

/** A form action's answer when the limit is hit: 429 with Retry-After and a message the page shows. */
export function rateLimitedFormResponse(seconds: number) {
  return data(
    { ok: false as const, formError: retryMessage(seconds), fieldErrors: {} as Record<string, string> },
    { status: 429, headers: { "Retry-After": String(seconds) } },
  );
}
