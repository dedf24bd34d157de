/**
 * What a realtime socket may cost us. A client speaks only `hello` (after connecting) and `ping` (every 60 s,
 * HEARTBEAT_MS), so these budgets leave honest clients far from the edge and make a flood end in a close (1008)
 * instead of one answer and one D1 write per frame. docs/security.md lists the numbers.
 */
export type FrameKind = "hello" | "ping" | "other";

interface BucketRule {
  /** Frames allowed at once. */
  burst: number;
  /** One more frame is allowed every this many ms. */
  refillMs: number;
}

export const FRAME_BUDGETS: Record<FrameKind, BucketRule> = {
  ping: { burst: 3, refillMs: 30_000 },
  hello: { burst: 3, refillMs: 5_000 },
  // Unparseable or unknown frames: a buggy client gets a few error answers, a flood a close.
  other: { burst: 3, refillMs: 30_000 },
};

/** Sockets one user (or one admin on the admin feed) may hold at once; the next upgrade gets 429. */
export const MAX_SOCKETS_PER_USER = 10;
/** `users.last_seen` is written at most this often per user, however often the pages ping. */
export const LAST_SEEN_EVERY_MS = 60_000;
/** The close code for a socket that spent its budget (RFC 6455 "policy violation"). */
export const POLICY_VIOLATION = 1008;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets per socket and frame kind, in memory. A socket whose object hibernated starts again with a full
 * budget; a flood keeps the object awake, so it never gets that reset.
 */
export class FrameBudget {
  private buckets = new WeakMap<WebSocket, Partial<Record<FrameKind, Bucket>>>();

  constructor(private readonly rules: Record<FrameKind, BucketRule> = FRAME_BUDGETS) {}

  /** Spends one frame of `kind`; false when the socket has none left. */
  take(ws: WebSocket, kind: FrameKind, now = Date.now()): boolean {
    const rule = this.rules[kind];
    const perSocket = this.buckets.get(ws) ?? {};
    this.buckets.set(ws, perSocket);
    const bucket = perSocket[kind] ?? { tokens: rule.burst, at: now };
    const refilled = Math.min(rule.burst, bucket.tokens + (now - bucket.at) / rule.refillMs);
    if (refilled < 1) {
      perSocket[kind] = { tokens: refilled, at: now };
      return false;
    }
    perSocket[kind] = { tokens: refilled - 1, at: now };
    return true;
  }
}
