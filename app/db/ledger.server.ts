/**
 * The credit ledger's operations on D1. Only the user's UserLedger Durable Object calls these, one at a time,
 * so reads and the batch that follows them see no interleaved change. Every change is one D1 batch (a
 * transaction): ledger row + balance + related row (clip, hold). users.credits has a CHECK (credits >= 0).
 */
import { and, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { Clip, ClipRequest, Credits } from "~/domain/api";
import { HOLD_TTL_MS } from "~/domain/api";
import { clipCost, INSUFFICIENT_CREDITS_MESSAGE, ZERO_DURATION_MESSAGE } from "~/domain/credits";
import type { Format, Quality } from "~/domain/media";
import { checkPlanLimits, effectivePlan } from "~/domain/plans";
import { sha256Hex } from "~/utils/crypto";
import type { Db } from "./client.server";
import { clips, creditHolds, creditLedger, users } from "./schema";

export type LedgerErrorCode =
  | "not_found"
  | "forbidden"
  | "plan_limit"
  | "insufficient_credits"
  | "idempotency_conflict"
  | "invalid_input"
  | "hold_not_active"
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
const CONFLICT_MESSAGE = "This Idempotency-Key was already used for a different request.";

export type LedgerKind = (typeof creditLedger.$inferInsert)["kind"];
type ClipRow = typeof clips.$inferSelect;

export function toApiClip(row: ClipRow): Clip {
  return {
    id: row.id,
    name: row.name,
    videoUrl: row.videoUrl,
    startSeconds: row.startTimeSeconds,
    endSeconds: row.endTimeSeconds,
    format: row.format as Format,
    quality: row.quality as Quality,
    cost: row.cost,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A stable fingerprint of what a key was used for. */
export function requestHash(operation: string, payload: unknown): Promise<string> {
  return sha256Hex(JSON.stringify([operation, payload]));
}

// Written out: drizzle leaves columns unqualified, and inside the subquery "id" would mean the hold's id.
const heldSql = (now: number) =>
  sql<number>`coalesce((select sum(h.amount) from credit_holds h
    where h.user_id = "users"."id" and h.status = 'held' and h.expires_at > ${now}), 0)`;

export async function readCredits(db: Db, userId: string, now = Date.now()): Promise<Credits | null> {
  const row = await db
    .select({
      balance: users.credits,
      held: heldSql(now),
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!row) return null;
  return { balance: row.balance, held: row.held, available: row.balance - row.held };
}

async function ledgerRowByKey(db: Db, userId: string, key: string) {
  return db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.idempotencyKey, key)))
    .get();
}

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

function balanceUpdate(db: Db, userId: string, delta: number) {
  return db
    .update(users)
    .set({ credits: sql`${users.credits} + ${delta}`, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/**
 * Checks shared by a direct charge and a reservation: the account, the plan's limits, the price and the credits
 * available — one read of the user row with its active holds.
 */
async function priceClip(
  db: Db,
  userId: string,
  request: ClipRequest,
  now = Date.now(),
): Promise<LedgerResult<{ cost: number; credits: Credits }>> {
  const row = await db
    .select({ user: users, held: heldSql(now) })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  const user = row?.user;
  if (!row || !user) return fail(404, "not_found", "User not found.");
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
  const credits = { balance: user.credits, held: row.held, available: user.credits - row.held };
  if (credits.available < cost) return fail(402, "insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE);
  return success({ cost, credits });
}

function clipInsert(
  db: Db,
  userId: string,
  clipId: string,
  request: ClipRequest,
  cost: number,
  source: ClipRow["source"],
) {
  return db
    .insert(clips)
    .values({
      id: clipId,
      userId,
      name: request.name,
      videoUrl: request.videoUrl,
      startTimeSeconds: request.startSeconds,
      endTimeSeconds: request.endSeconds,
      format: request.format,
      quality: request.quality,
      cost,
      status: "Completed",
      source,
    })
    .returning();
}

export interface ChargeOutcome {
  clip: Clip;
  credits: Credits;
}

/** Charge a clip and insert it, atomically. A repeated key returns the first result. */
export async function chargeClip(
  db: Db,
  input: { userId: string; key: string; request: ClipRequest; source: "api" | "admin"; actorId?: string | null },
): Promise<LedgerResult<ChargeOutcome>> {
  const hash = await requestHash("charge", input.request);
  const previous = await ledgerRowByKey(db, input.userId, input.key);
  if (previous) {
    if (previous.requestHash !== hash || !previous.clipId) return fail(409, "idempotency_conflict", CONFLICT_MESSAGE);
    const clip = await db.select().from(clips).where(eq(clips.id, previous.clipId)).get();
    const credits = await readCredits(db, input.userId);
    if (!clip || !credits) return fail(404, "not_found", "The clip of this request no longer exists.");
    return success({ clip: toApiClip(clip), credits }, true);
  }
  const priced = await priceClip(db, input.userId, input.request);
  if (!priced.ok) return priced;
  const { cost, credits } = priced.value;
  const clipId = crypto.randomUUID();
  try {
    const [inserted] = await db.batch([
      clipInsert(db, input.userId, clipId, input.request, cost, input.source),
      ledgerInsert(db, {
        userId: input.userId,
        delta: -cost,
        balanceAfter: credits.balance - cost,
        kind: "clip",
        description: `Clip Creation: "${input.request.name}"`,
        key: input.key,
        hash,
        clipId,
        actorId: input.actorId,
      }),
      balanceUpdate(db, input.userId, -cost),
    ]);
    const clip = inserted[0];
    if (!clip) return fail(500, "internal", SAVE_FAILED_MESSAGE);
    return success({
      clip: toApiClip(clip),
      credits: { ...credits, balance: credits.balance - cost, available: credits.available - cost },
    });
  } catch (error) {
    // The batch is a transaction: nothing of it was written.
    console.error(
      JSON.stringify({ level: "error", msg: "charge batch failed", userId: input.userId, error: String(error) }),
    );
    return fail(500, "internal", SAVE_FAILED_MESSAGE);
  }
}

export interface HoldOutcome {
  hold: { id: string; amount: number; expiresAt: string };
  credits: Credits;
}

/** Reserve the clip's cost for an extension job: available drops, the balance does not (yet). */
export async function reserveHold(
  db: Db,
  input: { userId: string; key: string; request: ClipRequest; now?: number },
): Promise<LedgerResult<HoldOutcome>> {
  const now = input.now ?? Date.now();
  const hash = await requestHash("reserve", input.request);
  const previous = await db
    .select()
    .from(creditHolds)
    .where(and(eq(creditHolds.userId, input.userId), eq(creditHolds.idempotencyKey, input.key)))
    .get();
  if (previous) {
    if (previous.requestHash !== hash) return fail(409, "idempotency_conflict", CONFLICT_MESSAGE);
    const credits = await readCredits(db, input.userId, now);
    if (!credits) return fail(404, "not_found", "User not found.");
    return success(
      { hold: { id: previous.id, amount: previous.amount, expiresAt: previous.expiresAt.toISOString() }, credits },
      true,
    );
  }
  const priced = await priceClip(db, input.userId, input.request, now);
  if (!priced.ok) return priced;
  const { cost, credits } = priced.value;
  const id = crypto.randomUUID();
  const expiresAt = new Date(now + HOLD_TTL_MS);
  await db.insert(creditHolds).values({
    id,
    userId: input.userId,
    amount: cost,
    status: "held",
    request: JSON.stringify(input.request),
    idempotencyKey: input.key,
    requestHash: hash,
    expiresAt,
    createdAt: new Date(now),
  });
  return success({
    hold: { id, amount: cost, expiresAt: expiresAt.toISOString() },
    credits: { ...credits, held: credits.held + cost, available: credits.available - cost },
  });
}

async function loadHold(db: Db, userId: string, holdId: string) {
  return db
    .select()
    .from(creditHolds)
    .where(and(eq(creditHolds.id, holdId), eq(creditHolds.userId, userId)))
    .get();
}

/** Turn a hold into a charge and its clip. Capturing twice returns the same clip. */
export async function captureHold(
  db: Db,
  input: { userId: string; holdId: string; parseRequest: (json: string) => ClipRequest | null; now?: number },
): Promise<LedgerResult<ChargeOutcome>> {
  const now = input.now ?? Date.now();
  const hold = await loadHold(db, input.userId, input.holdId);
  if (!hold) return fail(404, "not_found", "Hold not found.");
  if (hold.status === "captured" && hold.clipId) {
    const clip = await db.select().from(clips).where(eq(clips.id, hold.clipId)).get();
    const credits = await readCredits(db, input.userId, now);
    if (!clip || !credits) return fail(404, "not_found", "The clip of this hold no longer exists.");
    return success({ clip: toApiClip(clip), credits }, true);
  }
  if (hold.status !== "held" || hold.expiresAt.getTime() <= now) {
    return fail(
      409,
      "hold_not_active",
      `This hold was ${hold.status === "held" ? "expired" : hold.status} and can no longer be captured.`,
    );
  }
  const request = input.parseRequest(hold.request);
  if (!request) return fail(500, "internal", "The hold's request could not be read.");
  const credits = await readCredits(db, input.userId, now);
  if (!credits) return fail(404, "not_found", "User not found.");
  if (credits.balance < hold.amount) return fail(402, "insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE);
  const clipId = crypto.randomUUID();
  try {
    const [inserted] = await db.batch([
      clipInsert(db, input.userId, clipId, request, hold.amount, "extension"),
      ledgerInsert(db, {
        userId: input.userId,
        delta: -hold.amount,
        balanceAfter: credits.balance - hold.amount,
        kind: "clip",
        description: `Clip Creation: "${request.name}"`,
        key: `hold:${hold.id}`,
        hash: hold.requestHash,
        clipId,
        holdId: hold.id,
      }),
      balanceUpdate(db, input.userId, -hold.amount),
      db
        .update(creditHolds)
        .set({ status: "captured", clipId, settledAt: new Date(now) })
        .where(and(eq(creditHolds.id, hold.id), eq(creditHolds.status, "held"))),
    ]);
    const clip = inserted[0];
    if (!clip) return fail(500, "internal", SAVE_FAILED_MESSAGE);
    return success({
      clip: toApiClip(clip),
      credits: {
        balance: credits.balance - hold.amount,
        held: credits.held - hold.amount,
        available: credits.available,
      },
    });
  } catch (error) {
    console.error(
      JSON.stringify({ level: "error", msg: "capture batch failed", holdId: hold.id, error: String(error) }),
    );
    return fail(500, "internal", SAVE_FAILED_MESSAGE);
  }
}

/** Give a hold back. Releasing twice is fine; releasing a captured hold is not. */
export async function releaseHold(
  db: Db,
  input: { userId: string; holdId: string; now?: number },
): Promise<LedgerResult<{ credits: Credits }>> {
  const now = input.now ?? Date.now();
  const hold = await loadHold(db, input.userId, input.holdId);
  if (!hold) return fail(404, "not_found", "Hold not found.");
  if (hold.status === "captured") return fail(409, "hold_not_active", "This hold was already captured.");
  let replayed = true;
  if (hold.status === "held") {
    await db
      .update(creditHolds)
      .set({ status: "released", settledAt: new Date(now) })
      .where(and(eq(creditHolds.id, hold.id), eq(creditHolds.status, "held")));
    replayed = false;
  }
  const credits = await readCredits(db, input.userId, now);
  if (!credits) return fail(404, "not_found", "User not found.");
  return success({ credits }, replayed);
}

/** Mark every hold past its expiry as expired; returns the earliest expiry still ahead, if any. */
export async function expireHolds(
  db: Db,
  userId: string,
  now = Date.now(),
): Promise<{ expired: number; next: number | null }> {
  const expired = await db
    .update(creditHolds)
    .set({ status: "expired", settledAt: new Date(now) })
    .where(
      and(eq(creditHolds.userId, userId), eq(creditHolds.status, "held"), lte(creditHolds.expiresAt, new Date(now))),
    )
    .returning({ id: creditHolds.id });
  const next = await db
    .select({ expiresAt: creditHolds.expiresAt })
    .from(creditHolds)
    .where(
      and(eq(creditHolds.userId, userId), eq(creditHolds.status, "held"), gt(creditHolds.expiresAt, new Date(now))),
    )
    .orderBy(creditHolds.expiresAt)
    .limit(1)
    .get();
  return { expired: expired.length, next: next?.expiresAt.getTime() ?? null };
}

/**
 * A grant, refund or admin adjustment: a signed delta with a reason. Grants are idempotent on their derived key;
 * the balance never goes below zero (the CHECK refuses the whole batch).
 */
export async function applyDelta(
  db: Db,
  input: {
    userId: string;
    key: string;
    delta: number;
    kind: LedgerKind;
    description: string;
    actorId?: string | null;
    clipId?: string;
    /** Extra statements that must commit with the ledger row (e.g. a plan change). */
    alongside?: Parameters<Db["batch"]>[0][number][];
  },
): Promise<LedgerResult<{ credits: Credits }>> {
  const hash = await requestHash(input.kind, { delta: input.delta, description: input.description });
  const previous = await ledgerRowByKey(db, input.userId, input.key);
  if (previous) {
    if (previous.requestHash !== hash) return fail(409, "idempotency_conflict", CONFLICT_MESSAGE);
    const credits = await readCredits(db, input.userId);
    if (!credits) return fail(404, "not_found", "User not found.");
    return success({ credits }, true);
  }
  const credits = await readCredits(db, input.userId);
  if (!credits) return fail(404, "not_found", "User not found.");
  if (credits.balance + input.delta < 0) {
    return fail(422, "invalid_input", "This change would make the balance negative.");
  }
  const statements = [
    ledgerInsert(db, {
      userId: input.userId,
      delta: input.delta,
      balanceAfter: credits.balance + input.delta,
      kind: input.kind,
      description: input.description,
      key: input.key,
      hash,
      clipId: input.clipId,
      actorId: input.actorId,
    }),
    balanceUpdate(db, input.userId, input.delta),
    ...(input.alongside ?? []),
  ] as const;
  await db.batch(statements as unknown as Parameters<Db["batch"]>[0]);
  return success({
    credits: { ...credits, balance: credits.balance + input.delta, available: credits.available + input.delta },
  });
}

export async function recentClips(db: Db, userId: string, limit = 5) {
  const rows = await db
    .select()
    .from(clips)
    .where(eq(clips.userId, userId))
    .orderBy(desc(clips.createdAt))
    .limit(limit);
  return rows.map(toApiClip);
}

export async function clipCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(clips)
    .where(eq(clips.userId, userId))
    .get();
  return row?.n ?? 0;
}

/** The invariant, for every user: credits == sum(ledger deltas) and credits >= 0. Returns the users that break it. */
export async function reconcile(db: Db) {
  const ledgerSum = sql<number>`coalesce((select sum(l.delta) from credit_ledger l where l.user_id = "users"."id"), 0)`;
  return db
    .select({ userId: users.id, email: users.email, credits: users.credits, ledgerSum })
    .from(users)
    .where(sql`"users"."credits" < 0 or "users"."credits" != ${ledgerSum}`);
}
