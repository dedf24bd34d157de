import { z } from "zod";
import { clipSchema, creditsSchema } from "./api";
import { PLAN_IDS, STORED_PLANS } from "./plans";
import { signinWithNotice } from "./signin-messages";

/**
 * The realtime protocol, version 1, for /realtime (pages) and /api/v1/realtime (the extension).
 * Every server message carries the user's sequence number; a client that reconnects says the last one it saw.
 * Clients only send intents (hello, ping) — never balances.
 */
export const REALTIME_VERSION = 1;
export const REALTIME_SUBPROTOCOL = "clipcut.v1";
/** Browsers cannot set headers on a WebSocket: the extension sends its token as a second subprotocol. */
export const TOKEN_SUBPROTOCOL_PREFIX = "bearer.";
export const HEARTBEAT_MS = 60_000;

/**
 * Close codes the server uses beyond the standard ones (1000 normal, 1001 going away — every deploy — and 1011
 * server error, after which clients reconnect with backoff). After these two a client must not reconnect.
 */
export const CLOSE_CODES = {
  /** The user's access ended (ban, sign-out everywhere, revocation): a reconnect would be refused. */
  accessEnded: 4001,
  /** An admin feed socket of a user who is no longer an admin. */
  adminAccessEnded: 4003,
} as const;
/**
 * RFC 6455 "policy violation": the socket spent its frame budget or its account's (a flood, a reconnect loop). The
 * client reconnects, but only after OVER_BUDGET_RETRY_MS, by when the budget has refilled.
 */
export const POLICY_VIOLATION_CLOSE = 1008;
export const isFinalClose = (code: number) => code === CLOSE_CODES.accessEnded || code === CLOSE_CODES.adminAccessEnded;

/**
 * Where an open page goes when its socket ended for good: a demoted admin (4003) still has a session and goes to
 * the user area; any other end of access signs the page out with the fixed "session ended" notice, back to `here`.
 */
export function destinationAfterEnd(closeCode: number | undefined, here: string): string {
  return closeCode === CLOSE_CODES.adminAccessEnded ? "/dashboard" : signinWithNotice("session_ended", here);
}

export const settingsDataSchema = z.object({ extensionId: z.string().min(1).max(64) });
export type SettingsData = z.infer<typeof settingsDataSchema>;

const planState = z.object({ plan: z.enum(STORED_PLANS), pendingPlan: z.enum(PLAN_IDS).nullable() });

export const serverMessageSchema = z.discriminatedUnion("type", [
  z.object({
    v: z.literal(1),
    type: z.literal("snapshot"),
    seq: z.number().int(),
    data: z.object({ credits: creditsSchema, plan: planState, clipCount: z.number().int() }),
  }),
  z.object({ v: z.literal(1), type: z.literal("credits"), seq: z.number().int(), data: creditsSchema }),
  // A team member's shared balance (the Pro owner's) changed: relayed by the member's own ledger.
  z.object({ v: z.literal(1), type: z.literal("teamCredits"), seq: z.number().int(), data: creditsSchema }),
  z.object({ v: z.literal(1), type: z.literal("plan"), seq: z.number().int(), data: planState }),
  z.object({
    v: z.literal(1),
    type: z.literal("clip"),
    seq: z.number().int(),
    // paidByTeam: a team member's clip paid from the owner's balance (the member's team card counts it).
    data: z.object({ clip: clipSchema, paidByTeam: z.boolean().optional() }),
  }),
  // A clip of the user was deleted (by an admin, with or without a refund): lists drop it.
  z.object({
    v: z.literal(1),
    type: z.literal("clipRemoved"),
    seq: z.number().int(),
    data: z.object({ clipId: z.string() }),
  }),
  z.object({ v: z.literal(1), type: z.literal("pong"), seq: z.number().int() }),
  // An admin changed a product setting every page uses (today the extension id); pages switch to it at once.
  z.object({ v: z.literal(1), type: z.literal("settings"), seq: z.number().int(), data: settingsDataSchema }),
  z.object({ v: z.literal(1), type: z.literal("error"), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export const clientMessageSchema = z.discriminatedUnion("type", [
  z.object({ v: z.literal(1), type: z.literal("hello"), lastSeq: z.number().int().min(0).nullable() }),
  z.object({ v: z.literal(1), type: z.literal("ping") }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** Admin dashboards: batched hints to revalidate, never row data; and settings changes. */
export const adminFeedMessageSchema = z.discriminatedUnion("type", [
  z.object({
    v: z.literal(1),
    type: z.literal("invalidate"),
    topics: z.array(z.enum(["users", "clips", "audit"])),
    events: z.number().int(),
  }),
  z.object({ v: z.literal(1), type: z.literal("settings"), data: settingsDataSchema }),
]);
export type AdminFeedMessage = z.infer<typeof adminFeedMessageSchema>;

/**
 * Attempts in a row that never open before a client gives up and says "Real-time connection failed." (spec K3):
 * with the backoff below that is about a minute of trying, far longer than a deploy keeps sockets away.
 */
export const MAX_RECONNECT_ATTEMPTS = 12;
export const REALTIME_FAILED_MESSAGE = "Real-time connection failed.";

/**
 * Reconnect delay: exponential backoff with full jitter, capped at 10 s — every deploy closes the sockets, so the
 * cap bounds how stale a page can be after one, while jitter spreads the reconnect storm.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(10_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.floor(random() * cap) + 250;
}

/** After a close for spending a frame budget (1008): 5 s, plus up to 5 s of jitter so the sockets spread out. */
export const OVER_BUDGET_RETRY_MS = 5_000;
export function overBudgetDelayMs(random: () => number = Math.random): number {
  return OVER_BUDGET_RETRY_MS + Math.floor(random() * OVER_BUDGET_RETRY_MS);
}
