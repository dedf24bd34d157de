/** Shared pieces of every ledger decision: results, credits, the key memory, and events derived from a change. */
import type { Clip, Credits } from "../api";
import { teamWorks } from "../effective-plan";
import { LEDGER_REFUSALS, type LedgerRefusal } from "./refusals";
import type {
  AdminTopic,
  DecideContext,
  Decision,
  Effect,
  Hold,
  KeyMemo,
  LedgerEvent,
  LedgerFailure,
  LedgerKind,
  LedgerResult,
  LedgerState,
  LedgerUser,
  Payer,
  UserPatch,
  Write,
} from "./types";

export const SAVE_FAILED_MESSAGE = "Failed to save clip details. No credits were deducted — please try again.";
export const BUSY_MESSAGE = "The ledger is busy. Nothing was charged; retry with the same Idempotency-Key.";
export const CONFLICT_MESSAGE = "This Idempotency-Key was already used for a different request.";
export const BANNED_MESSAGE = "This account has been banned.";

/** A refusal: its status and API code follow from the reason (`LEDGER_REFUSALS`); the message is for people. */
export const fail = (reason: LedgerRefusal, message: string): LedgerFailure => ({
  ok: false,
  ...LEDGER_REFUSALS[reason],
  reason,
  message,
});
export const success = <T>(value: T, replayed = false): LedgerResult<T> => ({ ok: true, value, replayed });

export function creditsOf(state: LedgerState, now: number): Credits {
  let held = 0;
  for (const hold of state.holds.values()) if (hold.expiresAt > now) held += hold.amount;
  return { balance: state.user.credits, held, available: state.user.credits - held };
}

export function cloneState(state: LedgerState): LedgerState {
  // `members` and `payer` are replaced, never edited in place, so sharing them is safe.
  // Lines are replaced, never edited in place, so a new map of the same objects is a copy.
  return {
    ...state,
    user: { ...state.user },
    holds: new Map(state.holds),
    keys: new Map(state.keys),
    lines: new Map(state.lines),
  };
}

/** Recent idempotency keys kept for replay without a read; older ones are found in D1 when needed. */
export const RECENT_KEYS = 512;
/** Holds a member's ledger remembers opening on a payer's ledger (a capture's replay finds its payer). */
export const MAX_PAYER_HOLDS = 256;

export function remember(state: LedgerState, key: string, memo: KeyMemo): void {
  state.keys.delete(key);
  state.keys.set(key, memo);
  if (state.keys.size > RECENT_KEYS) state.keys.delete(state.keys.keys().next().value as string);
}

export const holdView = (hold: Hold) => ({
  id: hold.id,
  amount: hold.amount,
  expiresAt: new Date(hold.expiresAt).toISOString(),
});

/** A clip added or removed by an operation, and whose clip it is (null: this account's own). */
export interface ClipChange<T> {
  item: T;
  creatorId: string | null;
}

/** What an operation returns before its effects are derived: its answer, its writes, the clips it changed. */
export interface Draft<T> {
  result: LedgerResult<T>;
  writes?: Write[];
  clipsAdded?: ClipChange<Clip>[];
  clipsRemoved?: ClipChange<string>[];
  wakeAt?: number | null;
  /** Access ended (a ban): sockets close after the commit, and token checks are forgotten. */
  endAccess?: string;
  /** Token checks are read again on their next use (an unban). */
  forgetTokens?: boolean;
  /** Profile-level change worth an admin refresh even without a plan change (a ban). */
  adminUsers?: boolean;
  /** Members whose payer changed here (a join, a removal): their ledgers learn it after the commit. */
  payers?: { memberId: string; payer: Payer | null }[];
}

/** Whether a team owned by this account works now: its owner on Pro and not banned (the one rule). */
export const teamWorksFor = (user: LedgerUser) => teamWorks({ ownerPlan: user.plan, ownerBanned: user.banned });

/**
 * Every operation runs through here. A refused operation writes nothing and leaves the state as it found it
 * (whatever it drafted before refusing). Effects come from what the operation changed in the state, so each change
 * is published exactly once — one credits message, one plan message, one per clip — whatever path it took; the
 * team's relays are decided here too (a Pro owner's balance is the team's), never by the object.
 */
export function decide<T>(state: LedgerState, ctx: DecideContext, operation: () => Draft<T>): Decision<T> {
  const start = {
    user: state.user,
    holds: new Map(state.holds),
    keys: new Map(state.keys),
    lastClipAt: state.lastClipAt,
    clipCount: state.clipCount,
    members: state.members,
    payer: state.payer,
    ownsTeam: state.ownsTeam,
    lines: new Map(state.lines),
  };
  const credits = creditsOf(state, ctx.now);
  const draft = operation();
  if (!draft.result.ok) {
    Object.assign(state, start);
    return { result: draft.result, writes: [], effects: [] };
  }
  const writes = draft.writes ?? [];
  const effects: Effect[] = [];
  const topics = new Set<AdminTopic>();
  if (writes.length > 0) {
    const after = creditsOf(state, ctx.now);
    if (after.balance !== credits.balance || after.held !== credits.held || after.available !== credits.available) {
      effects.push({ type: "publish", event: { type: "credits", data: after } });
      // The team's balance goes to the members this ledger holds in memory: none, no relay.
      if (state.members.length > 0 && teamWorksFor(state.user))
        effects.push({ type: "teamCredits", credits: after, memberIds: state.members });
    }
    const user = state.user;
    if (user.plan !== start.user.plan || user.pendingPlan !== start.user.pendingPlan) {
      effects.push({
        type: "publish",
        event: { type: "plan", data: { plan: user.plan, pendingPlan: user.pendingPlan } },
      });
      topics.add("users");
    }
    if (state.members.length > 0 && teamWorksFor(user) !== teamWorksFor(start.user))
      effects.push({ type: "teamStatus", active: teamWorksFor(user), plan: user.plan, memberIds: state.members });
    if (draft.adminUsers) topics.add("users");
    const own = (creatorId: string | null) => creatorId === null || creatorId === user.id;
    for (const { item: clip, creatorId } of draft.clipsAdded ?? []) {
      const event: LedgerEvent = own(creatorId)
        ? { type: "clip", data: { clip } }
        : { type: "clip", data: { clip, paidByTeam: true } };
      effects.push(own(creatorId) ? { type: "publish", event } : { type: "toMember", memberId: creatorId!, event });
    }
    for (const { item: clipId, creatorId } of draft.clipsRemoved ?? []) {
      const event: LedgerEvent = { type: "clipRemoved", data: { clipId } };
      effects.push(own(creatorId) ? { type: "publish", event } : { type: "toMember", memberId: creatorId!, event });
    }
    if (draft.clipsAdded?.length || draft.clipsRemoved?.length) topics.add("clips");
    for (const change of draft.payers ?? []) effects.push({ type: "payer", ...change });
  }
  for (const topic of topics) effects.push({ type: "adminTopic", topic });
  if (draft.endAccess) effects.push({ type: "endAccess", reason: draft.endAccess });
  if (draft.endAccess || draft.forgetTokens) effects.push({ type: "forgetTokens" });
  if (draft.wakeAt !== undefined && draft.wakeAt !== null) effects.push({ type: "wake", at: draft.wakeAt });
  return { result: draft.result, writes, effects };
}

/** A key used before: its replay (same fingerprint), a conflict (another one), or null when the key is new. */
export function previousKey(state: LedgerState, key: string, hash: string): LedgerResult<KeyMemo> | null {
  const memo = state.keys.get(key);
  if (!memo) return null;
  if (memo.hash !== hash) return fail("idempotency_conflict", CONFLICT_MESSAGE);
  return success(memo, true);
}

/**
 * A signed change of the balance with a reason (grant, refund, adjustment), idempotent on its key, refused when it
 * would go below zero. `patch` changes plan columns in the same decision, `also` adds writes (a clip delete).
 */
export function applyDelta(
  state: LedgerState,
  ctx: DecideContext,
  input: {
    key: string;
    hash: string;
    delta: number;
    kind: LedgerKind;
    description: string;
    actorId?: string | null;
    clipId?: string | null;
    patch?: UserPatch;
    also?: Write[];
  },
): Draft<{ credits: Credits }> {
  const previous = previousKey(state, input.key, input.hash);
  if (previous) return { result: previous.ok ? success({ credits: creditsOf(state, ctx.now) }, true) : previous };
  const balanceAfter = state.user.credits + input.delta;
  if (balanceAfter < 0) return { result: fail("negative_balance", "This change would make the balance negative.") };
  state.user = { ...state.user, ...input.patch, credits: balanceAfter };
  remember(state, input.key, { hash: input.hash, clip: null });
  const writes: Write[] = [
    {
      type: "row",
      id: ctx.newId(),
      delta: input.delta,
      balanceAfter,
      kind: input.kind,
      description: input.description,
      key: input.key,
      hash: input.hash,
      clipId: input.clipId ?? null,
      holdId: null,
      actorId: input.actorId ?? null,
    },
    { type: "balance", delta: input.delta },
  ];
  if (input.patch) writes.push({ type: "user", patch: input.patch });
  writes.push(...(input.also ?? []));
  // Grants and adjustments show on the admin Users screen; clip charges are heard through the clips topic.
  return { result: success({ credits: creditsOf(state, ctx.now) }), writes, adminUsers: true };
}

/** A plan-column change without a ledger row. */
export function patchUser(state: LedgerState, patch: UserPatch): Write {
  state.user = { ...state.user, ...patch };
  return { type: "user", patch };
}
