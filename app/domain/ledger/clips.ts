/** Clip operations: a direct charge, the two-phase hold (reserve → capture | release | expire), refund and delete. */
import { HOLD_TTL_MS, clipRequestSchema, type Clip, type ClipRequest, type Credits, type HoldRequest } from "../api";
import { clipTerms, type ClipTerms } from "../clip-quality";
import { clipOptionsRecord } from "../clip-request";
import { clipPictureSide } from "../crop";
import { clipCost, INSUFFICIENT_CREDITS_MESSAGE, ZERO_DURATION_MESSAGE } from "../credits";
import { planOf } from "../effective-plan";
import { BATCH_LIMIT_MESSAGE, batchFullMessage, checkPlanLimits, maxOpenHolds } from "../plans";
import { NOT_A_MEMBER_MESSAGE, TEAM_SUSPENDED_MESSAGE } from "../teams";
import {
  applyDelta,
  BANNED_MESSAGE,
  CONFLICT_MESSAGE,
  creditsOf,
  decide,
  fail,
  holdView,
  previousKey,
  remember,
  success,
  teamWorksFor,
  type Draft,
} from "./core";
import type { ClipSource, DecideContext, Decision, Facts, Hold, LedgerResult, LedgerState, Write } from "./types";

export interface ChargeOutcome {
  clip: Clip;
  credits: Credits;
}
export interface HoldOutcome {
  hold: { id: string; amount: number; expiresAt: string };
  credits: Credits;
  /** What the clip is cut with (quality charged, scale, watermark), by the paying plan: the job asks nothing else. */
  terms: ClipTerms;
}

/** The terms of a held clip, from the plan that pays (a team member's clips: the owner's) — memory only. */
function termsFor(state: LedgerState, request: HoldRequest): ClipTerms {
  return clipTerms({
    format: request.format,
    asked: request.quality,
    // The output's short side decides, as the height always did for landscape: a 9:16 crop is priced by its width.
    sourceHeight: clipPictureSide({
      aspect: request.aspect,
      crop: request.crop,
      sourceWidth: request.sourceWidth,
      sourceHeight: request.sourceHeight ?? null,
    }),
    limits: planOf(state.user).limits,
  });
}

/** The account, the plan's limits, the price and the credits available — all from memory. */
function priceClip(
  state: LedgerState,
  request: ClipRequest,
  now: number,
  creatorId: string | null = null,
): LedgerResult<{ cost: number }> {
  const user = state.user;
  // A team member's clip: this (the owner's) account pays only while the team works, and only for its members.
  if (creatorId && creatorId !== user.id) {
    if (!teamWorksFor(user)) return fail("team_suspended", TEAM_SUSPENDED_MESSAGE);
    if (!state.members.includes(creatorId)) return fail("not_a_member", NOT_A_MEMBER_MESSAGE);
  }
  if (user.banned) return fail("banned", BANNED_MESSAGE);
  const duration = request.endSeconds - request.startSeconds;
  const limits = checkPlanLimits(planOf(user).plan, {
    durationSeconds: duration,
    format: request.format,
    quality: request.quality,
  });
  if (!limits.ok) return fail("plan_limit", limits.message);
  const cost = clipCost(duration, request.format, request.quality);
  if (cost <= 0) return fail("zero_duration", ZERO_DURATION_MESSAGE);
  if (creditsOf(state, now).available < cost) return fail("insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE);
  return success({ cost });
}

/** A new clip, with a createdAt unique for the user, and the ledger row and balance change that pay for it. */
function payForClip(
  state: LedgerState,
  ctx: DecideContext,
  input: {
    request: ClipRequest;
    cost: number;
    source: ClipSource;
    key: string;
    hash: string;
    holdId: string | null;
    creatorId: string | null;
  },
  actorId: string | null,
): { clip: Clip; writes: Write[] } {
  state.lastClipAt = Math.max(ctx.now, state.lastClipAt + 1);
  const { request } = input;
  const clip: Clip = {
    id: ctx.newId(),
    name: request.name,
    videoUrl: request.videoUrl,
    startSeconds: request.startSeconds,
    endSeconds: request.endSeconds,
    format: request.format,
    quality: request.quality,
    cost: input.cost,
    status: "Completed",
    createdAt: new Date(state.lastClipAt).toISOString(),
    ...clipOptionsRecord(request),
  };
  const balanceAfter = state.user.credits - input.cost;
  state.user = { ...state.user, credits: balanceAfter };
  if (!input.creatorId) state.clipCount += 1;
  remember(state, input.key, { hash: input.hash, clip });
  return {
    clip,
    writes: [
      { type: "clip", clip, source: input.source, creatorId: input.creatorId },
      {
        type: "row",
        id: ctx.newId(),
        delta: -input.cost,
        balanceAfter,
        kind: "clip",
        description: input.creatorId ? `Team clip: "${request.name}"` : `Clip Creation: "${request.name}"`,
        key: input.key,
        hash: input.hash,
        clipId: clip.id,
        holdId: input.holdId,
        actorId,
      },
      { type: "balance", delta: -input.cost },
    ],
  };
}

/** A clip this account made joins its own clip list live; a team member's clip is the member's, not the owner's
 *  (the owner sees the charge in the credit history): it reaches the member's sockets. */
const addedClip = (clip: Clip, creatorId: string | null) => ({ clipsAdded: [{ item: clip, creatorId }] });

/** The first answer of a clip's key, if the key was used before. */
function replayClip(state: LedgerState, key: string, hash: string, now: number): LedgerResult<ChargeOutcome> | null {
  const previous = previousKey(state, key, hash);
  if (!previous || !previous.ok) return previous;
  if (!previous.value.clip) return fail("clip_gone", "The clip of this request no longer exists.");
  return success({ clip: previous.value.clip, credits: creditsOf(state, now) }, true);
}

/**
 * Charge a clip and insert it, atomically. A repeated key answers with the first result. `creatorId`: a Pro team
 * member's clip, paid from this (the owner's) balance and recorded as the member's.
 */
export function charge(
  state: LedgerState,
  input: {
    key: string;
    request: ClipRequest;
    source: "api" | "admin";
    actorId?: string | null;
    creatorId?: string | null;
  },
  facts: Facts,
  ctx: DecideContext,
): Decision<ChargeOutcome> {
  return decide(state, ctx, () => {
    const replay = replayClip(state, input.key, facts.hash, ctx.now);
    if (replay) return { result: replay };
    const priced = priceClip(state, input.request, ctx.now, input.creatorId ?? null);
    if (!priced.ok) return { result: priced };
    const paid = payForClip(
      state,
      ctx,
      { ...input, cost: priced.value.cost, hash: facts.hash, holdId: null, creatorId: input.creatorId ?? null },
      input.actorId ?? null,
    );
    return {
      result: success({ clip: paid.clip, credits: creditsOf(state, ctx.now) }),
      writes: paid.writes,
      ...addedClip(paid.clip, input.creatorId ?? null),
    };
  });
}

/**
 * Reserve the clip's cost for an extension job: available drops, the balance does not (yet). Plans without batch
 * processing hold one clip at a time; the others up to BATCH_MAX_HOLDS.
 */
export function reserve(
  state: LedgerState,
  input: { key: string; request: HoldRequest; creatorId?: string | null },
  facts: Facts & { holdByKey?: Hold | null },
  ctx: DecideContext,
): Decision<HoldOutcome> {
  return decide(state, ctx, (): Draft<HoldOutcome> => {
    const terms = termsFor(state, input.request);
    const previous = [...state.holds.values()].find((h) => h.key === input.key) ?? facts.holdByKey ?? null;
    if (previous) {
      if (previous.hash !== facts.hash) return { result: fail("idempotency_conflict", CONFLICT_MESSAGE) };
      return { result: success({ hold: holdView(previous), credits: creditsOf(state, ctx.now), terms }, true) };
    }
    // The clip is held (and later charged) at the quality the terms charge.
    const { sourceHeight: _height, sourceWidth: _width, ...fields } = input.request;
    const request: ClipRequest = { ...fields, quality: terms.quality };
    const priced = priceClip(state, request, ctx.now, input.creatorId ?? null);
    if (!priced.ok) return { result: priced };
    const { plan } = planOf(state.user);
    const open = [...state.holds.values()].filter((h) => h.expiresAt > ctx.now).length;
    const max = maxOpenHolds(plan);
    if (open >= max) return { result: fail("batch_limit", max === 1 ? BATCH_LIMIT_MESSAGE : batchFullMessage(max)) };
    const hold: Hold = {
      id: ctx.newId(),
      amount: priced.value.cost,
      request: JSON.stringify(request),
      name: request.name,
      key: input.key,
      hash: facts.hash,
      creatorId: input.creatorId ?? null,
      createdAt: ctx.now,
      expiresAt: ctx.now + HOLD_TTL_MS,
    };
    state.holds.set(hold.id, hold);
    return {
      result: success({ hold: holdView(hold), credits: creditsOf(state, ctx.now), terms }),
      writes: [{ type: "hold", hold }],
      wakeAt: hold.expiresAt,
    };
  });
}

export const captureKey = (holdId: string) => `hold:${holdId}`;

/** Turn a hold into a charge and its clip. Capturing twice answers with the same clip. */
export function capture(
  state: LedgerState,
  input: { holdId: string },
  facts: Facts,
  ctx: DecideContext,
): Decision<ChargeOutcome> {
  return decide(state, ctx, () => {
    const key = captureKey(input.holdId);
    const hold = state.holds.get(input.holdId);
    if (!hold) {
      // Not active: a replay of a capture, or a hold that was released, expired or never existed.
      const stored = facts.storedHold;
      if (!stored) return { result: fail("hold_not_found", "Hold not found.") };
      if (stored.status === "captured") {
        const replay = replayClip(state, key, stored.hash, ctx.now);
        if (replay) return { result: replay };
      }
      return {
        result: fail("hold_not_active", `This hold was ${stored.status} and can no longer be captured.`),
      };
    }
    if (hold.expiresAt <= ctx.now)
      return { result: fail("hold_not_active", "This hold was expired and can no longer be captured.") };
    const parsed = clipRequestSchema.safeParse(JSON.parse(hold.request));
    if (!parsed.success) return { result: fail("hold_unreadable", "The hold's request could not be read.") };
    if (state.user.credits < hold.amount) return { result: fail("insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE) };
    state.holds.delete(hold.id);
    const paid = payForClip(
      state,
      ctx,
      {
        request: parsed.data,
        cost: hold.amount,
        source: "extension",
        key,
        hash: hold.hash,
        holdId: hold.id,
        creatorId: hold.creatorId,
      },
      null,
    );
    return {
      result: success({ clip: paid.clip, credits: creditsOf(state, ctx.now) }),
      writes: [...paid.writes, { type: "settleHolds", ids: [hold.id], status: "captured", clipId: paid.clip.id }],
      ...addedClip(paid.clip, hold.creatorId),
    };
  });
}

/** Give a hold back. Releasing twice is fine; releasing a captured hold is not. */
export function release(
  state: LedgerState,
  input: { holdId: string },
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits }> {
  return decide(state, ctx, (): Draft<{ credits: Credits }> => {
    const hold = state.holds.get(input.holdId);
    if (!hold) {
      const stored = facts.storedHold;
      if (!stored) return { result: fail("hold_not_found", "Hold not found.") };
      if (stored.status === "captured") return { result: fail("hold_not_active", "This hold was already captured.") };
      return { result: success({ credits: creditsOf(state, ctx.now) }, true) };
    }
    state.holds.delete(hold.id);
    return {
      result: success({ credits: creditsOf(state, ctx.now) }),
      writes: [{ type: "settleHolds", ids: [hold.id], status: "released", clipId: null }],
    };
  });
}

/** Holds past their expiry become `expired` (their credits are available again); wakes again at the next expiry. */
export function expire(state: LedgerState, ctx: DecideContext): Decision<{ expired: number }> {
  return decide(state, ctx, () => {
    const due = [...state.holds.values()].filter((h) => h.expiresAt <= ctx.now).map((h) => h.id);
    for (const id of due) state.holds.delete(id);
    const next = Math.min(...[...state.holds.values()].map((h) => h.expiresAt));
    return {
      result: success({ expired: due.length }),
      writes: due.length === 0 ? [] : [{ type: "settleHolds", ids: due, status: "expired", clipId: null }],
      wakeAt: Number.isFinite(next) ? next : null,
    };
  });
}

export const refundKey = (clipId: string) => `refund:${clipId}`;

/**
 * Gives back a clip's cost to this ledger, only for a clip it paid for (`facts.clip` is read by `payer_id`), once per
 * clip, and deletes the clip in the same batch when asked (an admin deleting a clip with a refund). The amount is
 * always the clip's recorded cost; a caller expecting another is refused.
 */
export function refund(
  state: LedgerState,
  input: { clipId: string; reason: string; actorId?: string | null; amount?: number; deleteClip?: boolean },
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits }> {
  return decide(state, ctx, (): Draft<{ credits: Credits }> => {
    const key = refundKey(input.clipId);
    const previous = previousKey(state, key, facts.hash);
    if (previous) return { result: previous.ok ? success({ credits: creditsOf(state, ctx.now) }, true) : previous };
    if (!facts.clip) return { result: fail("clip_not_found", "Clip not found.") };
    if (input.amount !== undefined && input.amount !== facts.clip.cost)
      return {
        result: fail("refund_amount", `This clip cost ${facts.clip.cost} credits; that is what a refund gives back.`),
      };
    const draft = applyDelta(state, ctx, {
      key,
      hash: facts.hash,
      delta: facts.clip.cost,
      kind: "refund",
      description: `Refund: ${input.reason}`,
      clipId: input.clipId,
      actorId: input.actorId,
      also: input.deleteClip ? [{ type: "deleteClip", clipId: input.clipId }] : [],
    });
    const removed = { item: input.clipId, creatorId: facts.clip.creatorId };
    if (input.deleteClip && facts.clip.creatorId === state.user.id) state.clipCount -= 1;
    return { ...draft, clipsRemoved: input.deleteClip ? [removed] : [] };
  });
}

/** Deletes one of the user's clips without a refund (the charge stays on the ledger, the clip row goes). */
export function deleteClip(
  state: LedgerState,
  input: { clipId: string },
  facts: Facts,
  ctx: DecideContext,
): Decision<{ deleted: boolean }> {
  return decide(state, ctx, (): Draft<{ deleted: boolean }> => {
    if (!facts.clip) return { result: fail("clip_not_found", "Clip not found.") };
    if (facts.clip.creatorId === state.user.id) state.clipCount -= 1;
    return {
      result: success({ deleted: true }),
      writes: [{ type: "deleteClip", clipId: input.clipId }],
      clipsRemoved: [{ item: input.clipId, creatorId: facts.clip.creatorId }],
    };
  });
}
