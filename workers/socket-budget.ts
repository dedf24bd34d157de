import { POLICY_VIOLATION_CLOSE } from "../app/domain/realtime";

/**
 * What realtime sockets may cost us. A client speaks only `hello` (after connecting, and after a gap in the seqs)
 * and `ping` (every 60 s, HEARTBEAT_MS). Every frame spends two budgets: its socket's, so one runaway socket is
 * closed after a few frames without spending its siblings' share, and its account's (the user in their ledger
 * object, the admin in AdminFeed), which no new socket starts afresh: a reconnect loop or frames spread over many
 * sockets are held to the account's rate. Beyond either budget the socket is closed (1008) and the client waits
 * 5–10 s before it reconnects (decision 004). docs/security.md lists the numbers.
 */
export type FrameKind = "hello" | "ping" | "other";

interface BucketRule {
  /** Frames allowed at once. */
  burst: number;
  /** One more frame is allowed every this many ms. */
  refillMs: number;
}

/** Sockets one user (or one admin on the admin feed) may hold at once; the next upgrade gets 429. */
export const MAX_SOCKETS_PER_USER = 10;

/** Per socket: a socket says hello once per connection, and pings once a minute. */
export const FRAME_BUDGETS: Record<FrameKind, BucketRule> = {
  ping: { burst: 3, refillMs: 30_000 },
  hello: { burst: 3, refillMs: 5_000 },
  // Unparseable or unknown frames: a buggy client gets a few error answers, a flood a close.
  other: { burst: 3, refillMs: 30_000 },
};

/**
 * Per account, shared by all its sockets. Hellos: one per connection, and the Worker lets an account open 30 sockets
 * a minute (SOCKET_USER_LIMITER, wrangler.toml), so an account within that — reloading pages, every tab and the
 * extension reconnecting after a deploy — never runs dry here; what this adds is that open sockets cannot multiply
 * it (per socket alone, 10 open sockets could say 30 hellos at once and 120 a minute more). Pings: one a minute per socket, 10 sockets.
 */
export const ACCOUNT_FRAME_BUDGETS: Record<FrameKind, BucketRule> = {
  hello: { burst: 30, refillMs: 2_000 },
  ping: { burst: 2 * MAX_SOCKETS_PER_USER, refillMs: 3_000 },
  other: { burst: MAX_SOCKETS_PER_USER, refillMs: 30_000 },
};

/** `users.last_seen` is written at most this often per user, however often the pages ping. */
export const LAST_SEEN_EVERY_MS = 60_000;
/** The close code for a socket that spent a budget (RFC 6455 "policy violation"). */
export const POLICY_VIOLATION = POLICY_VIOLATION_CLOSE;

interface Bucket {
  tokens: number;
  at: number;
}

/** One token bucket per frame kind, for one holder (a socket, a user, an admin), in memory. */
export class FrameBuckets {
  private buckets: Partial<Record<FrameKind, Bucket>> = {};

  constructor(private readonly rules: Record<FrameKind, BucketRule>) {}

  /** Spends one frame of `kind`; false when none is left. */
  take(kind: FrameKind, now = Date.now()): boolean {
    const rule = this.rules[kind];
    const bucket = this.buckets[kind] ?? { tokens: rule.burst, at: now };
    const refilled = Math.min(rule.burst, bucket.tokens + (now - bucket.at) / rule.refillMs);
    const ok = refilled >= 1;
    this.buckets[kind] = { tokens: ok ? refilled - 1 : refilled, at: now };
    return ok;
  }
}
