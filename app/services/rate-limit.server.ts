import { data } from "@remix-run/cloudflare";

export interface RateLimitRule {
  /** What is limited, e.g. "contact" or "signin". */
  name: string;
  limit: number;
  windowMs: number;
}

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Fixed-window counter in D1, so every Worker instance sees the same count.
 * One upsert statement: atomic without a read-modify-write race.
 */
export async function hitRateLimit(db: D1Database, rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
  const now = Date.now();
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .bind(`${rule.name}:${subject}`, windowStart)
    .first<{ count: number }>();
  if ((row?.count ?? 0) <= rule.limit) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)) };
}

/** Whether the subject is already over the limit, without counting this request (for failure-only limits). */
export async function peekRateLimit(db: D1Database, rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
  const now = Date.now();
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const row = await db
    .prepare("SELECT count FROM rate_limits WHERE key = ?1 AND window_start = ?2")
    .bind(`${rule.name}:${subject}`, windowStart)
    .first<{ count: number }>();
  if ((row?.count ?? 0) < rule.limit) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)) };
}

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
