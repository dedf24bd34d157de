import { data } from "@remix-run/cloudflare";
import { ipLimitKey } from "~/domain/ip-prefix";

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
/** The fixed window a moment falls in, and the answer for a subject that is over the limit in it. */
function windowOf(rule: RateLimitRule, now = Date.now()) {
  const start = Math.floor(now / rule.windowMs) * rule.windowMs;
  const blocked = (): RateLimitResult => ({
    ok: false,
    retryAfterSeconds: Math.max(1, Math.ceil((start + rule.windowMs - now) / 1000)),
  });
  return { start, blocked };
}

export async function hitRateLimit(db: D1Database, rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
  const { start: windowStart, blocked } = windowOf(rule);
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .bind(counterKey(rule, subject), windowStart)
    .first<{ count: number }>();
  return (row?.count ?? 0) <= rule.limit ? { ok: true } : blocked();
}

/** Gives back one counted attempt in the current window (e.g. a password attempt that turned out right). */
export async function refundRateLimit(db: D1Database, rule: RateLimitRule, subject: string): Promise<void> {
  const { start: windowStart } = windowOf(rule);
  await db
    .prepare("UPDATE rate_limits SET count = count - 1 WHERE key = ?1 AND window_start = ?2 AND count > 0")
    .bind(counterKey(rule, subject), windowStart)
    .run();
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
