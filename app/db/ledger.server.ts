/**
 * The credit ledger's operations. Only the user's UserLedger Durable Object calls them, and it is the only writer of
 * that user's balance, so it keeps a `LedgerState` in memory (user row, active holds, recent idempotency keys) and
 * every operation here is decided against that state: no read on the common path. An operation returns a
 * `Decision` — its answer, the D1 statements that make it true, and the realtime events to publish once they
 * commit. The object commits the statements of several decisions in one D1 batch (a transaction), see
 * docs/decisions/005-group-commit.md. Every change is ledger row + balance update (+ clip or hold), so
 * `users.credits == sum(ledger.delta)` holds after every batch; a CHECK (credits >= 0) backs the floor.
 */
import { and, desc, eq, inArray, sql, type Placeholder } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Clip, ClipRequest, Credits } from "~/domain/api";
import { clipRequestSchema, HOLD_TTL_MS } from "~/domain/api";
import {
  clipCost,
  INSUFFICIENT_CREDITS_MESSAGE,
  NEW_USER_CREDITS,
  PLUGIN_CONNECT_CREDITS,
  ZERO_DURATION_MESSAGE,
} from "~/domain/credits";
import {
  invoiceGrant,
  packGrant,
  refundTakeBack,
  subscriptionPlanFields,
  type PlanFields,
  type SubscriptionFacts,
} from "~/domain/billing";
import { checkPlanLimits, effectivePlan, monthlyCredits, PLAN_PERIOD_MS, planRank, type PlanId } from "~/domain/plans";
import type { ServerMessage } from "~/domain/realtime";
import { sha256Hex } from "~/utils/crypto";
import type { Db } from "./client.server";
import { clipCount, clipRow, toApiClip } from "./clips.server";
import { clips, creditHolds, creditLedger, users } from "./schema";

export type LedgerErrorCode =
  | "not_found"
  | "forbidden"
  | "plan_limit"
  | "insufficient_credits"
  | "idempotency_conflict"
  | "invalid_input"
  | "hold_not_active"
  | "busy"
  | "internal";
export type LedgerFailure = { ok: false; status: number; code: LedgerErrorCode; message: string };
export type LedgerResult<T> = { ok: true; value: T; replayed: boolean } | LedgerFailure;

export const fail = (status: number, code: LedgerErrorCode, message: string): LedgerFailure => ({
  ok: false,
  status,
  code,
  message,
});
const success = <T>(value: T, replayed = false): LedgerResult<T> => ({ ok: true, value, replayed });

export const SAVE_FAILED_MESSAGE = "Failed to save clip details. No credits were deducted — please try again.";
export const BUSY_MESSAGE = "The ledger is busy. Nothing was charged; retry with the same Idempotency-Key.";
const CONFLICT_MESSAGE = "This Idempotency-Key was already used for a different request.";

export type LedgerKind = (typeof creditLedger.$inferInsert)["kind"];
type UserRow = typeof users.$inferSelect;
type HoldRow = typeof creditHolds.$inferSelect;
export type Statement = BatchItem<"sqlite">;

/** What a ledger change tells the user's sockets: a realtime ServerMessage without its envelope (v, seq). */
type Published = Extract<ServerMessage, { type: "credits" | "clip" | "plan" }>;
export type LedgerEvent = Published extends infer M ? (M extends Published ? Omit<M, "v" | "seq"> : never) : never;
export type AdminTopic = "users" | "clips";

export interface Decision<T> {
  result: LedgerResult<T>;
  /** Statements that make the decision true; empty when nothing changes (a refusal or a replay). */
  writes: Statement[];
  /** Published after the writes commit, in this order. */
  events: LedgerEvent[];
  adminTopics: AdminTopic[];
  /** When the object should next wake (a hold's expiry, a period's end). */
  wakeAt: number | null;
}

export interface OpContext {
  now: number;
  /** After a failed batch: consult D1 for idempotency keys that memory does not know (an older key, a restart). */
  thorough: boolean;
}

/** Recent idempotency keys kept for replay without a read; older ones are found in D1 when a batch trips on them. */
const RECENT_KEYS = 512;

export interface LedgerState {
  userId: string;
  user: UserRow;
  /** Holds still `held`, by id (expired ones too, until the sweep marks them). */
  holds: Map<string, HoldRow>;
  /** credit_ledger keys → the request fingerprint and, for clips, the clip: enough to replay the first answer. */
  keys: Map<string, { hash: string; clip: Clip | null }>;
  /** Clip timestamps are unique per user, so paging by createdAt never skips two clips of one batch. */
  lastClipAt: number;
}

export function cloneState(state: LedgerState): LedgerState {
  return { ...state, holds: new Map(state.holds), keys: new Map(state.keys) };
}

/** One read at start (and after a failed batch): the user, their active holds and their most recent keys. */
export async function loadLedgerState(db: Db, userId: string): Promise<LedgerState | null> {
  const [userRows, holdRows, recent] = await db.batch([
    db.select().from(users).where(eq(users.id, userId)),
    db
      .select()
      .from(creditHolds)
      .where(and(eq(creditHolds.userId, userId), eq(creditHolds.status, "held"))),
    db
      .select({ key: creditLedger.idempotencyKey, hash: creditLedger.requestHash, clip: clips })
      .from(creditLedger)
      .leftJoin(clips, eq(clips.id, creditLedger.clipId))
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.createdAt))
      .limit(RECENT_KEYS),
  ]);
  const user = userRows[0];
  if (!user) return null;
  const keys = new Map<string, { hash: string; clip: Clip | null }>();
  for (const row of recent.reverse())
    keys.set(row.key, { hash: row.hash, clip: row.clip ? toApiClip(row.clip) : null });
  return { userId, user, holds: new Map(holdRows.map((h) => [h.id, h])), keys, lastClipAt: 0 };
}

export function creditsOf(state: LedgerState, now: number): Credits {
  let held = 0;
  for (const hold of state.holds.values()) if (hold.expiresAt.getTime() > now) held += hold.amount;
  return { balance: state.user.credits, held, available: state.user.credits - held };
}

function remember(state: LedgerState, key: string, memo: { hash: string; clip: Clip | null }): void {
  state.keys.delete(key);
  state.keys.set(key, memo);
  if (state.keys.size > RECENT_KEYS) state.keys.delete(state.keys.keys().next().value as string);
}

/** A stable fingerprint of what a key was used for. */
export function requestHash(operation: string, payload: unknown): Promise<string> {
  return sha256Hex(JSON.stringify([operation, payload]));
}

// ── Statements ───────────────────────────────────────────────────────────────

function ledgerInsert(
  db: Db,
  row: {
    userId: string;
    delta: number;
    balanceAfter: number;
    kind: LedgerKind;
    description: string;
    key: string;
    hash: string;
    clipId?: string;
    holdId?: string;
    actorId?: string | null;
  },
) {
  return db.insert(creditLedger).values({
    id: crypto.randomUUID(),
    userId: row.userId,
    delta: row.delta,
    balanceAfter: row.balanceAfter,
    kind: row.kind,
    description: row.description,
    idempotencyKey: row.key,
    requestHash: row.hash,
    clipId: row.clipId ?? null,
    holdId: row.holdId ?? null,
    actorId: row.actorId ?? null,
  });
}

function balanceUpdate(db: Db, userId: string, delta: number, now: number) {
  return db
    .update(users)
    .set({ credits: sql`${users.credits} + ${delta}`, updatedAt: new Date(now) })
    .where(eq(users.id, userId));
}

type PlanPatch = Pick<UserRow, "plan" | "pendingPlan" | "planPeriodStart" | "planPeriodEnd">;
const planUpdate = (db: Db, userId: string, patch: Partial<PlanPatch>, now: number) =>
  db
    .update(users)
    .set({ ...patch, updatedAt: new Date(now) })
    .where(eq(users.id, userId));

// ── Decisions ────────────────────────────────────────────────────────────────

interface Draft<T> {
  result: LedgerResult<T>;
  writes?: Statement[];
  clips?: Clip[];
  wakeAt?: number | null;
}

/**
 * Every operation runs through here: events come from what the operation changed in the state, so each change is
 * published exactly once — one credits message, one plan message, one per new clip — whatever path it took.
 */
async function decide<T>(
  state: LedgerState,
  ctx: OpContext,
  operation: () => Draft<T> | Promise<Draft<T>>,
): Promise<Decision<T>> {
  const before = { credits: creditsOf(state, ctx.now), plan: state.user.plan, pending: state.user.pendingPlan };
  const draft = await operation();
  const writes = draft.result.ok ? (draft.writes ?? []) : [];
  const events: LedgerEvent[] = [];
  const adminTopics: AdminTopic[] = [];
  if (writes.length > 0) {
    const credits = creditsOf(state, ctx.now);
    if (
      credits.balance !== before.credits.balance ||
      credits.held !== before.credits.held ||
      credits.available !== before.credits.available
    )
      events.push({ type: "credits", data: credits } satisfies LedgerEvent);
    if (state.user.plan !== before.plan || state.user.pendingPlan !== before.pending) {
      events.push({
        type: "plan",
        data: { plan: state.user.plan, pendingPlan: state.user.pendingPlan },
      } satisfies LedgerEvent);
      adminTopics.push("users");
    }
    for (const clip of draft.clips ?? []) events.push({ type: "clip", data: { clip } } satisfies LedgerEvent);
    if (draft.clips?.length) adminTopics.push("clips");
  }
  return { result: draft.result, writes, events, adminTopics, wakeAt: draft.wakeAt ?? null };
}

/**
 * Checks shared by a direct charge and a reservation: the account, the plan's limits, the price and the credits
 * available — all from memory.
 */
function priceClip(
  state: LedgerState,
  request: ClipRequest,
  now: number,
): LedgerResult<{ cost: number; credits: Credits }> {
  const user = state.user;
  if (user.status === "Banned") return fail(403, "forbidden", "This account has been banned.");
  const duration = request.endSeconds - request.startSeconds;
  const limits = checkPlanLimits(effectivePlan(user.plan), {
    durationSeconds: duration,
    format: request.format,
    quality: request.quality,
  });
  if (!limits.ok) return fail(403, "plan_limit", limits.message);
  const cost = clipCost(duration, request.format, request.quality);
  if (cost <= 0) return fail(422, "invalid_input", ZERO_DURATION_MESSAGE);
  const credits = creditsOf(state, now);
  if (credits.available < cost) return fail(402, "insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE);
  return success({ cost, credits });
}

/** A new clip, with a createdAt unique for the user. */
function newClip(
  db: Db,
  state: LedgerState,
  request: ClipRequest,
  cost: number,
  source: "api" | "admin" | "extension",
  now: number,
) {
  state.lastClipAt = Math.max(now, state.lastClipAt + 1);
  const row = clipRow(state.userId, request, cost, source, new Date(state.lastClipAt));
  return { clip: toApiClip(row), insert: db.insert(clips).values(row) };
}

/** What a ledger key was first used for: from memory, or — after a failed batch — from D1. */
async function previousKey(db: Db, state: LedgerState, key: string, ctx: OpContext) {
  const memo = state.keys.get(key);
  if (memo || !ctx.thorough) return memo ?? null;
  const row = await db
    .select({ hash: creditLedger.requestHash, clip: clips })
    .from(creditLedger)
    .leftJoin(clips, eq(clips.id, creditLedger.clipId))
    .where(and(eq(creditLedger.userId, state.userId), eq(creditLedger.idempotencyKey, key)))
    .get();
  if (!row) return null;
  const found = { hash: row.hash, clip: row.clip ? toApiClip(row.clip) : null };
  remember(state, key, found);
  return found;
}

/** The first answer of a clip's key, if the key was used before. */
async function previousClip(
  db: Db,
  state: LedgerState,
  key: string,
  hash: string,
  ctx: OpContext,
): Promise<LedgerResult<{ clip: Clip; credits: Credits }> | null> {
  const memo = await previousKey(db, state, key, ctx);
  if (!memo) return null;
  if (memo.hash !== hash) return fail(409, "idempotency_conflict", CONFLICT_MESSAGE);
  if (!memo.clip) return fail(404, "not_found", "The clip of this request no longer exists.");
  return success({ clip: memo.clip, credits: creditsOf(state, ctx.now) }, true);
}

export interface ChargeOutcome {
  clip: Clip;
  credits: Credits;
}

/** Charge a clip and insert it, atomically. A repeated key answers with the first result. */
export function charge(
  db: Db,
  state: LedgerState,
  input: { key: string; request: ClipRequest; source: "api" | "admin"; actorId?: string | null },
  ctx: OpContext,
): Promise<Decision<ChargeOutcome>> {
  return decide(state, ctx, async () => {
    const hash = await requestHash("charge", input.request);
    const replay = await previousClip(db, state, input.key, hash, ctx);
    if (replay) return { result: replay };
    const priced = priceClip(state, input.request, ctx.now);
    if (!priced.ok) return { result: priced };
    const { cost, credits } = priced.value;
    const { clip, insert } = newClip(db, state, input.request, cost, input.source, ctx.now);
    const balanceAfter = credits.balance - cost;
    state.user = { ...state.user, credits: balanceAfter };
    remember(state, input.key, { hash, clip });
    return {
      result: success({ clip, credits: creditsOf(state, ctx.now) }),
      writes: [
        insert,
        ledgerInsert(db, {
          userId: state.userId,
          delta: -cost,
          balanceAfter,
          kind: "clip",
          description: `Clip Creation: "${input.request.name}"`,
          key: input.key,
          hash,
          clipId: clip.id,
          actorId: input.actorId,
        }),
        balanceUpdate(db, state.userId, -cost, ctx.now),
      ],
      clips: [clip],
    };
  });
}

export interface HoldOutcome {
  hold: { id: string; amount: number; expiresAt: string };
  credits: Credits;
}
const holdView = (hold: HoldRow) => ({ id: hold.id, amount: hold.amount, expiresAt: hold.expiresAt.toISOString() });

/** Reserve the clip's cost for an extension job: available drops, the balance does not (yet). */
export function reserve(
  db: Db,
  state: LedgerState,
  input: { key: string; request: ClipRequest },
  ctx: OpContext,
): Promise<Decision<HoldOutcome>> {
  return decide(state, ctx, async () => {
    const hash = await requestHash("reserve", input.request);
    let previous = [...state.holds.values()].find((h) => h.idempotencyKey === input.key);
    if (!previous && ctx.thorough)
      previous = await db
        .select()
        .from(creditHolds)
        .where(and(eq(creditHolds.userId, state.userId), eq(creditHolds.idempotencyKey, input.key)))
        .get();
    if (previous) {
      if (previous.requestHash !== hash) return { result: fail(409, "idempotency_conflict", CONFLICT_MESSAGE) };
      return { result: success({ hold: holdView(previous), credits: creditsOf(state, ctx.now) }, true) };
    }
    const priced = priceClip(state, input.request, ctx.now);
    if (!priced.ok) return { result: priced };
    const hold: HoldRow = {
      id: crypto.randomUUID(),
      userId: state.userId,
      amount: priced.value.cost,
      status: "held",
      request: JSON.stringify(input.request),
      idempotencyKey: input.key,
      requestHash: hash,
      clipId: null,
      createdAt: new Date(ctx.now),
      expiresAt: new Date(ctx.now + HOLD_TTL_MS),
      settledAt: null,
    };
    state.holds.set(hold.id, hold);
    return {
      result: success({ hold: holdView(hold), credits: creditsOf(state, ctx.now) }),
      writes: [db.insert(creditHolds).values(hold)],
      wakeAt: hold.expiresAt.getTime(),
    };
  });
}

const loadHold = (db: Db, userId: string, holdId: string) =>
  db
    .select()
    .from(creditHolds)
    .where(and(eq(creditHolds.id, holdId), eq(creditHolds.userId, userId)))
    .get();

/** Turn a hold into a charge and its clip. Capturing twice answers with the same clip. */
export function capture(
  db: Db,
  state: LedgerState,
  input: { holdId: string },
  ctx: OpContext,
): Promise<Decision<ChargeOutcome>> {
  return decide(state, ctx, async () => {
    const key = `hold:${input.holdId}`;
    const hold = state.holds.get(input.holdId);
    if (!hold) {
      // Not active: a replay of a capture (memory or D1), or a hold that was released, expired or never existed.
      const stored = await loadHold(db, state.userId, input.holdId);
      if (!stored) return { result: fail(404, "not_found", "Hold not found.") };
      if (stored.status === "captured") {
        const replay = await previousClip(db, state, key, stored.requestHash, { ...ctx, thorough: true });
        if (replay) return { result: replay };
      }
      return {
        result: fail(409, "hold_not_active", `This hold was ${stored.status} and can no longer be captured.`),
      };
    }
    if (hold.expiresAt.getTime() <= ctx.now)
      return { result: fail(409, "hold_not_active", "This hold was expired and can no longer be captured.") };
    const parsed = clipRequestSchema.safeParse(JSON.parse(hold.request));
    if (!parsed.success) return { result: fail(500, "internal", "The hold's request could not be read.") };
    if (state.user.credits < hold.amount)
      return { result: fail(402, "insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE) };
    const { clip, insert } = newClip(db, state, parsed.data, hold.amount, "extension", ctx.now);
    const balanceAfter = state.user.credits - hold.amount;
    state.user = { ...state.user, credits: balanceAfter };
    state.holds.delete(hold.id);
    remember(state, key, { hash: hold.requestHash, clip });
    return {
      result: success({ clip, credits: creditsOf(state, ctx.now) }),
      writes: [
        insert,
        ledgerInsert(db, {
          userId: state.userId,
          delta: -hold.amount,
          balanceAfter,
          kind: "clip",
          description: `Clip Creation: "${parsed.data.name}"`,
          key,
          hash: hold.requestHash,
          clipId: clip.id,
          holdId: hold.id,
        }),
        balanceUpdate(db, state.userId, -hold.amount, ctx.now),
        db
          .update(creditHolds)
          .set({ status: "captured", clipId: clip.id, settledAt: new Date(ctx.now) })
          .where(and(eq(creditHolds.id, hold.id), eq(creditHolds.status, "held"))),
      ],
      clips: [clip],
    };
  });
}

/** Give a hold back. Releasing twice is fine; releasing a captured hold is not. */
export function release(
  db: Db,
  state: LedgerState,
  input: { holdId: string },
  ctx: OpContext,
): Promise<Decision<{ credits: Credits }>> {
  return decide(state, ctx, async () => {
    const hold = state.holds.get(input.holdId);
    if (!hold) {
      const stored = await loadHold(db, state.userId, input.holdId);
      if (!stored) return { result: fail(404, "not_found", "Hold not found.") };
      if (stored.status === "captured")
        return { result: fail(409, "hold_not_active", "This hold was already captured.") };
      return { result: success({ credits: creditsOf(state, ctx.now) }, true) };
    }
    state.holds.delete(hold.id);
    return {
      result: success({ credits: creditsOf(state, ctx.now) }),
      writes: [
        db
          .update(creditHolds)
          .set({ status: "released", settledAt: new Date(ctx.now) })
          .where(and(eq(creditHolds.id, hold.id), eq(creditHolds.status, "held"))),
      ],
    };
  });
}

/** Holds past their expiry become `expired` (their credits are available again); wakes again at the next expiry. */
export function expire(db: Db, state: LedgerState, ctx: OpContext): Promise<Decision<{ expired: number }>> {
  return decide(state, ctx, () => {
    const due = [...state.holds.values()].filter((h) => h.expiresAt.getTime() <= ctx.now).map((h) => h.id);
    for (const id of due) state.holds.delete(id);
    const next = Math.min(...[...state.holds.values()].map((h) => h.expiresAt.getTime()));
    return {
      result: success({ expired: due.length }),
      writes:
        due.length === 0
          ? []
          : [
              db
                .update(creditHolds)
                .set({ status: "expired", settledAt: new Date(ctx.now) })
                .where(and(inArray(creditHolds.id, due), eq(creditHolds.status, "held"))),
            ],
      wakeAt: Number.isFinite(next) ? next : null,
    };
  });
}

/**
 * A signed delta with a reason (grant, refund, adjustment), idempotent on its key. Returns null and changes nothing
 * in `state` when refused. `alongside` statements commit with the ledger row (a plan change).
 */
async function delta(
  db: Db,
  state: LedgerState,
  input: {
    key: string;
    delta: number;
    kind: LedgerKind;
    description: string;
    /** What the key stands for; by default the delta and description. */
    fingerprint?: unknown;
    actorId?: string | null;
    clipId?: string;
    alongside?: Statement[];
    plan?: Partial<PlanPatch>;
  },
  ctx: OpContext,
): Promise<Draft<{ credits: Credits }>> {
  const hash = await requestHash(
    input.kind,
    input.fingerprint ?? { delta: input.delta, description: input.description },
  );
  const memo = await previousKey(db, state, input.key, ctx);
  if (memo) {
    if (memo.hash !== hash) return { result: fail(409, "idempotency_conflict", CONFLICT_MESSAGE) };
    return { result: success({ credits: creditsOf(state, ctx.now) }, true) };
  }
  const balanceAfter = state.user.credits + input.delta;
  if (balanceAfter < 0) return { result: fail(422, "invalid_input", "This change would make the balance negative.") };
  state.user = { ...state.user, ...input.plan, credits: balanceAfter };
  remember(state, input.key, { hash, clip: null });
  return {
    result: success({ credits: creditsOf(state, ctx.now) }),
    writes: [
      ledgerInsert(db, {
        userId: state.userId,
        delta: input.delta,
        balanceAfter,
        kind: input.kind,
        description: input.description,
        key: input.key,
        hash,
        clipId: input.clipId,
        actorId: input.actorId,
      }),
      balanceUpdate(db, state.userId, input.delta, ctx.now),
      ...(input.alongside ?? []),
    ],
  };
}

/** Admin edit of a balance to an exact value, with the admin and a reason on the ledger row. */
export function adjust(
  db: Db,
  state: LedgerState,
  input: { key: string; newBalance: number; actorId: string; reason: string },
  ctx: OpContext,
): Promise<Decision<{ credits: Credits }>> {
  return decide(state, ctx, () => {
    if (!Number.isInteger(input.newBalance) || input.newBalance < 0)
      return { result: fail(422, "invalid_input", "Credits must be a whole number of at least 0.") };
    return delta(
      db,
      state,
      {
        key: input.key,
        delta: input.newBalance - state.user.credits,
        kind: "adjust",
        description: `Adjusted by an admin: ${input.reason}`,
        // A retried edit replays even though the balance already moved.
        fingerprint: { newBalance: input.newBalance, reason: input.reason },
        actorId: input.actorId,
      },
      ctx,
    );
  });
}

/**
 * Gives back a clip's cost, once per clip (key `refund:<clipId>`), and deletes the clip in the same batch when
 * asked (an admin deleting a clip with a refund).
 */
export function refund(
  db: Db,
  state: LedgerState,
  input: {
    clipId: string;
    reason: string;
    actorId?: string | null;
    /** What the caller expects back; the refund is always the clip's recorded cost, and a mismatch is refused. */
    amount?: number;
    deleteClip?: boolean;
  },
  ctx: OpContext,
): Promise<Decision<{ credits: Credits }>> {
  return decide(state, ctx, async () => {
    const key = `refund:${input.clipId}`;
    const fingerprint = { clipId: input.clipId };
    const memo = await previousKey(db, state, key, { ...ctx, thorough: true });
    if (memo) {
      const hash = await requestHash("refund", fingerprint);
      if (memo.hash !== hash) return { result: fail(409, "idempotency_conflict", CONFLICT_MESSAGE) };
      return { result: success({ credits: creditsOf(state, ctx.now) }, true) };
    }
    const clip = await db
      .select({ cost: clips.cost })
      .from(clips)
      .where(and(eq(clips.id, input.clipId), eq(clips.userId, state.userId)))
      .get();
    if (!clip) return { result: fail(404, "not_found", "Clip not found.") };
    if (input.amount !== undefined && input.amount !== clip.cost)
      return {
        result: fail(422, "invalid_input", `This clip cost ${clip.cost} credits; that is what a refund gives back.`),
      };
    return delta(
      db,
      state,
      {
        key,
        delta: clip.cost,
        kind: "refund",
        description: `Refund: ${input.reason}`,
        fingerprint,
        clipId: input.clipId,
        actorId: input.actorId,
        alongside: input.deleteClip ? [db.delete(clips).where(eq(clips.id, input.clipId))] : [],
      },
      ctx,
    );
  });
}

/** "Connect and get 1 free credit": once per user ever; the plan becomes Plugin (counted as Free) if it was Free. */
export function pluginConnect(
  db: Db,
  state: LedgerState,
  ctx: OpContext,
): Promise<Decision<{ credits: Credits; alreadyConnected: boolean }>> {
  return decide(state, ctx, async () => {
    if (state.user.plan === "Plugin")
      return { result: success({ credits: creditsOf(state, ctx.now), alreadyConnected: true }, true) };
    const becomesPlugin = effectivePlan(state.user.plan) === "Free";
    const plan = becomesPlugin ? { plan: "Plugin" as const } : undefined;
    const draft = await delta(
      db,
      state,
      {
        key: "plugin-connect",
        delta: PLUGIN_CONNECT_CREDITS,
        kind: "plugin_connect",
        description: "Plugin connection bonus",
        plan,
        alongside: plan ? [planUpdate(db, state.userId, plan, ctx.now)] : [],
      },
      { ...ctx, thorough: true },
    );
    const result = draft.result;
    return {
      ...draft,
      result: result.ok
        ? success({ credits: result.value.credits, alreadyConnected: result.replayed }, result.replayed)
        : result,
    };
  });
}

/** The spec's rule: a Free user with 0 credits and no clips gets 100 back — once, ever. */
export function starterReset(db: Db, state: LedgerState, ctx: OpContext): Promise<Decision<{ credits: Credits }>> {
  return decide(state, ctx, async () => {
    const credits = creditsOf(state, ctx.now);
    const eligible = effectivePlan(state.user.plan) === "Free" && state.user.credits === 0;
    if (!eligible || (await clipCount(db, state.userId)) > 0) return { result: success({ credits }, true) };
    return delta(
      db,
      state,
      { key: "starter-reset", delta: NEW_USER_CREDITS, kind: "starter_reset", description: "Starter credits restored" },
      { ...ctx, thorough: true },
    );
  });
}

export interface PlanChange {
  plan: string;
  pendingPlan: PlanId | null;
  effective: "now" | "period_end";
}

/**
 * Upgrades apply at once: new limits, a new period and a top-up of the difference in monthly credits. Downgrades
 * wait for the end of the period. The grant's key derives from (user, new period, plan).
 */
export function changePlan(
  db: Db,
  state: LedgerState,
  input: { plan: PlanId },
  ctx: OpContext,
): Promise<Decision<PlanChange>> {
  return decide(state, ctx, async (): Promise<Draft<PlanChange>> => {
    const { now } = ctx;
    const user = state.user;
    if (user.status === "Banned") return { result: fail(403, "forbidden", "This account has been banned.") };
    const current = effectivePlan(user.plan);
    const target = input.plan;
    if (target === current) {
      const result = success<PlanChange>({ plan: user.plan, pendingPlan: null, effective: "now" }, true);
      if (!user.pendingPlan) return { result };
      state.user = { ...user, pendingPlan: null };
      return { result, writes: [planUpdate(db, state.userId, { pendingPlan: null }, now)] };
    }
    if (planRank(target) < planRank(current) && user.planPeriodEnd && user.planPeriodEnd.getTime() > now) {
      state.user = { ...user, pendingPlan: target };
      return {
        result: success<PlanChange>({ plan: user.plan, pendingPlan: target, effective: "period_end" }),
        writes: [planUpdate(db, state.userId, { pendingPlan: target }, now)],
        wakeAt: user.planPeriodEnd.getTime(),
      };
    }
    const topUp = Math.max(0, monthlyCredits(target) - monthlyCredits(current));
    const patch: PlanPatch = {
      plan: target,
      pendingPlan: null,
      planPeriodStart: target === "Free" ? null : new Date(now),
      planPeriodEnd: target === "Free" ? null : new Date(now + PLAN_PERIOD_MS),
    };
    const result = success<PlanChange>({ plan: target, pendingPlan: null, effective: "now" });
    const wakeAt = patch.planPeriodEnd?.getTime() ?? null;
    if (topUp === 0) {
      state.user = { ...user, ...patch };
      return { result, writes: [planUpdate(db, state.userId, patch, now)], wakeAt };
    }
    const granted = await delta(
      db,
      state,
      {
        // The period this upgrade starts is unique to it. A retried request cannot grant twice either: it is decided
        // after this one and finds the plan already changed.
        key: `plan-grant:${target}:${now}`,
        delta: topUp,
        kind: "plan_grant",
        description: `${target} plan credits`,
        plan: patch,
        alongside: [planUpdate(db, state.userId, patch, now)],
      },
      ctx,
    );
    return granted.result.ok ? { result, writes: granted.writes, wakeAt } : { result: granted.result };
  });
}

/**
 * End of a paid period: apply a pending downgrade, start the next period and grant its credits (once per period,
 * key `renewal:<period start>`). Catches up on several missed periods. Answers when the current period ends.
 */
export function renewPeriod(
  db: Db,
  state: LedgerState,
  ctx: OpContext,
): Promise<Decision<{ periodEnd: number | null }>> {
  return decide(state, ctx, async (): Promise<Draft<{ periodEnd: number | null }>> => {
    const writes: Statement[] = [];
    for (let guard = 0; guard < 24; guard++) {
      const user = state.user;
      if (!user.planPeriodEnd || user.planPeriodEnd.getTime() > ctx.now) break;
      const next: PlanId = user.pendingPlan ?? effectivePlan(user.plan);
      const start = user.planPeriodEnd.getTime();
      if (next === "Free") {
        const patch: PlanPatch = { plan: "Free", pendingPlan: null, planPeriodStart: null, planPeriodEnd: null };
        state.user = { ...user, ...patch };
        writes.push(planUpdate(db, state.userId, patch, ctx.now));
        break;
      }
      const patch: PlanPatch = {
        plan: next,
        pendingPlan: null,
        planPeriodStart: new Date(start),
        planPeriodEnd: new Date(start + PLAN_PERIOD_MS),
      };
      const granted = await delta(
        db,
        state,
        {
          key: `renewal:${start}`,
          delta: monthlyCredits(next),
          kind: "renewal",
          description: `${next} plan credits`,
          plan: patch,
          alongside: [planUpdate(db, state.userId, patch, ctx.now)],
        },
        ctx,
      );
      if (!granted.result.ok) return { result: granted.result };
      if (granted.result.replayed) {
        // Granted before (memory lags D1 only after a restart mid-batch): move the period on without a grant.
        state.user = { ...state.user, ...patch };
        writes.push(planUpdate(db, state.userId, patch, ctx.now));
      } else writes.push(...(granted.writes ?? []));
    }
    const periodEnd = state.user.planPeriodEnd?.getTime() ?? null;
    return { result: success({ periodEnd }), writes, wakeAt: periodEnd };
  });
}

/** The invariant, for every user: credits == sum(ledger deltas) and credits >= 0. Returns the users that break it. */
export async function reconcile(db: Db) {
  const ledgerSum = sql<number>`coalesce((select sum(l.delta) from credit_ledger l where l.user_id = "users"."id"), 0)`;
  return db
    .select({ userId: users.id, email: users.email, credits: users.credits, ledgerSum })
    .from(users)
    .where(sql`"users"."credits" < 0 or "users"."credits" != ${ledgerSum}`);
}

// Written out: drizzle leaves columns unqualified, and inside the subquery "id" would mean the hold's id.
export const heldSql = (now: number | Placeholder) =>
  sql<number>`coalesce((select sum(h.amount) from credit_holds h
    where h.user_id = "users"."id" and h.status = 'held' and h.expires_at > ${now}), 0)`;

/** A user's credits as D1 has them (pages and API reads; the ledger itself answers from memory). */
export async function readCredits(db: Db, userId: string, now = Date.now()): Promise<Credits | null> {
  const row = await db
    .select({ balance: users.credits, held: heldSql(now) })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!row) return null;
  return { balance: row.balance, held: row.held, available: row.balance - row.held };
}

/** One page of the user's ledger, newest first, and how many rows there are in all (the credits history). */
export async function ledgerPage(db: Db, userId: string, page: { page: number; size: number }) {
  const [rows, total] = await Promise.all([
    db
      .select({
        id: creditLedger.id,
        delta: creditLedger.delta,
        balanceAfter: creditLedger.balanceAfter,
        description: creditLedger.description,
        createdAt: creditLedger.createdAt,
      })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db
      .select({ n: sql<number>`count(*)` })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}

// ── Payments (Stripe webhooks) ───────────────────────────────────────────
// Additive operations for docs/decisions/011-payments.md; their rules are the pure functions of ~/domain/billing.

const msOrNull = (d: Date | null) => d?.getTime() ?? null;
const dateOrNull = (t: number | null) => (t === null ? null : new Date(t));

export interface PlanView {
  plan: string;
  pendingPlan: PlanId | null;
}

/**
 * A subscription as Stripe has it now (re-read by the webhook): plan, pending plan and credit month follow it.
 * No credits move here (invoices grant them). Applying the same subscription twice changes nothing.
 */
export function applySubscription(
  db: Db,
  state: LedgerState,
  input: { facts: SubscriptionFacts },
  ctx: OpContext,
): Promise<Decision<PlanView>> {
  return decide(state, ctx, (): Draft<PlanView> => {
    const user = state.user;
    const current: PlanFields = {
      plan: effectivePlan(user.plan),
      pendingPlan: user.pendingPlan,
      planPeriodStart: msOrNull(user.planPeriodStart),
      planPeriodEnd: msOrNull(user.planPeriodEnd),
    };
    const next = subscriptionPlanFields(input.facts, current, ctx.now);
    const unchanged =
      !next ||
      (next.plan === current.plan &&
        next.pendingPlan === current.pendingPlan &&
        next.planPeriodStart === current.planPeriodStart &&
        next.planPeriodEnd === current.planPeriodEnd &&
        // A stored "Plugin" that becomes Free stays as it is; a paid plan is always written as itself.
        (next.plan === "Free" || user.plan === next.plan));
    if (unchanged) return { result: success({ plan: user.plan, pendingPlan: user.pendingPlan }, true) };
    const patch: PlanPatch = {
      plan: next.plan === "Free" && user.plan === "Plugin" ? "Plugin" : next.plan,
      pendingPlan: next.pendingPlan,
      planPeriodStart: dateOrNull(next.planPeriodStart),
      planPeriodEnd: dateOrNull(next.planPeriodEnd),
    };
    state.user = { ...user, ...patch };
    return {
      result: success({ plan: patch.plan, pendingPlan: patch.pendingPlan }),
      writes: [planUpdate(db, state.userId, patch, ctx.now)],
      wakeAt: next.planPeriodEnd,
    };
  });
}

/** A paid subscription invoice's credits, at most once (see invoiceGrant for the keys). */
export function grantPurchase(
  db: Db,
  state: LedgerState,
  input: {
    invoiceId: string;
    billingReason: string | null;
    plan: Exclude<PlanId, "Free">;
    previousPlan: PlanId | null;
    periodStart: number;
  },
  ctx: OpContext,
): Promise<Decision<{ credits: Credits; granted: number }>> {
  return decide(state, ctx, async () => {
    const grant = invoiceGrant(input);
    if (!grant) return { result: success({ credits: creditsOf(state, ctx.now), granted: 0 }, true) };
    const draft = await delta(
      db,
      state,
      { key: grant.key, delta: grant.delta, kind: grant.kind, description: grant.description },
      { ...ctx, thorough: true },
    );
    const r = draft.result;
    return {
      ...draft,
      result: r.ok ? success({ credits: r.value.credits, granted: r.replayed ? 0 : grant.delta }, r.replayed) : r,
    };
  });
}

/** A paid credit pack, at most once per payment (key `stripe:pack:<payment intent>`). */
export function grantPack(
  db: Db,
  state: LedgerState,
  input: { paymentIntentId: string; credits: number; name: string },
  ctx: OpContext,
): Promise<Decision<{ credits: Credits }>> {
  return decide(state, ctx, () => {
    if (!Number.isInteger(input.credits) || input.credits <= 0)
      return { result: fail(422, "invalid_input", "A credit pack grants a positive whole number of credits.") };
    const grant = packGrant(input);
    return delta(
      db,
      state,
      { key: grant.key, delta: grant.delta, kind: grant.kind, description: grant.description },
      { ...ctx, thorough: true },
    );
  });
}

/**
 * A refund takes back the refunded share of the credits its payment granted, only as far as they are unspent
 * (never below zero), as one ledger row with the reason — once per refund (key `stripe:refund:<id>`).
 */
export function takeBackRefund(
  db: Db,
  state: LedgerState,
  input: {
    refundId: string;
    refundCents: number;
    paymentCents: number;
    grantedCredits: number;
    reason: string;
    actorId?: string | null;
  },
  ctx: OpContext,
): Promise<Decision<{ credits: Credits; takenBack: number }>> {
  return decide(state, ctx, async () => {
    const decision = refundTakeBack({ ...input, available: creditsOf(state, ctx.now).available });
    const draft = await delta(
      db,
      state,
      {
        key: decision.key,
        delta: decision.delta,
        kind: "payment_refund",
        description: decision.description,
        // A replay is recognised by the refund, whatever the balance was when it first came.
        fingerprint: { refundId: input.refundId },
        actorId: input.actorId,
      },
      { ...ctx, thorough: true },
    );
    const r = draft.result;
    return {
      ...draft,
      result: r.ok ? success({ credits: r.value.credits, takenBack: r.replayed ? 0 : -decision.delta }, r.replayed) : r,
    };
  });
}
