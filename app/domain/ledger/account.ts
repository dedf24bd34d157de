/** Account operations: the welcome grant, the plugin bonus, the starter reset, admin edits and bans. */
import type { Credits } from "../api";
import { NEW_USER_CREDITS, PLUGIN_CONNECT_CREDITS } from "../credits";
import { effectivePlan, PLAN_PERIOD_MS, type PlanId } from "../plans";
import { ADMIN_RIGHTS_MESSAGES, STEP_UP_MS } from "../admin-rights";
import { applyDelta, creditsOf, decide, fail, patchUser, previousKey, success, type Draft } from "./core";
import type { DecideContext, Decision, Facts, LedgerState, UserPatch, Write } from "./types";
import { TEAM_OPEN_MESSAGE } from "../teams";

/** Sign-up's welcome credits: once per account (key `signup`). */
export function welcome(state: LedgerState, facts: Facts, ctx: DecideContext): Decision<{ credits: Credits }> {
  return decide(state, ctx, () =>
    applyDelta(state, ctx, {
      key: "signup",
      hash: facts.hash,
      delta: NEW_USER_CREDITS,
      kind: "signup",
      description: "Welcome credits",
    }),
  );
}

/** "Connect and get 1 free credit": once per user ever; the plan becomes Plugin (counted as Free) if it was Free. */
export function pluginConnect(
  state: LedgerState,
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits; alreadyConnected: boolean }> {
  return decide(state, ctx, (): Draft<{ credits: Credits; alreadyConnected: boolean }> => {
    if (state.user.plan === "Plugin")
      return { result: success({ credits: creditsOf(state, ctx.now), alreadyConnected: true }, true) };
    // Decided on the plan as it is now: an admin's or a payment's plan is never overwritten by "Plugin".
    const becomesPlugin = state.user.plan === "Free";
    const draft = applyDelta(state, ctx, {
      key: "plugin-connect",
      hash: facts.hash,
      delta: PLUGIN_CONNECT_CREDITS,
      kind: "plugin_connect",
      description: "Plugin connection bonus",
      patch: becomesPlugin ? { plan: "Plugin" } : undefined,
    });
    const result = draft.result;
    return {
      ...draft,
      result: result.ok
        ? success({ credits: result.value.credits, alreadyConnected: result.replayed }, result.replayed)
        : result,
    };
  });
}

/** Whether the starter reset applies to this state (checked when the ledger loads and when a page says hello). */
export const starterResetDue = (state: LedgerState) =>
  effectivePlan(state.user.plan) === "Free" && state.user.credits === 0 && state.clipCount === 0 && !state.user.banned;

/** The spec's rule: a Free user with 0 credits and no clips gets 100 back — once, ever. */
export function starterReset(state: LedgerState, facts: Facts, ctx: DecideContext): Decision<{ credits: Credits }> {
  return decide(state, ctx, () => {
    if (!starterResetDue(state)) return { result: success({ credits: creditsOf(state, ctx.now) }, true) };
    return applyDelta(state, ctx, {
      key: "starter-reset",
      hash: facts.hash,
      delta: NEW_USER_CREDITS,
      kind: "starter_reset",
      description: "Starter credits restored",
    });
  });
}

/** Admin edit of a balance to an exact value, with the admin and a reason on the ledger row. */
export function adjust(
  state: LedgerState,
  input: { key: string; newBalance: number; actorId: string; reason: string },
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits }> {
  return decide(state, ctx, () => adjustDraft(state, input, facts, ctx));
}

function adjustDraft(
  state: LedgerState,
  input: { key: string; newBalance: number; actorId: string; reason: string },
  facts: Facts,
  ctx: DecideContext,
): Draft<{ credits: Credits }> {
  if (!Number.isInteger(input.newBalance) || input.newBalance < 0)
    return { result: fail("invalid_balance", "Credits must be a whole number of at least 0.") };
  return applyDelta(state, ctx, {
    key: input.key,
    hash: facts.hash,
    delta: input.newBalance - state.user.credits,
    kind: "adjust",
    description: `Adjusted by an admin: ${input.reason}`,
    actorId: input.actorId,
  });
}

/**
 * An admin sets the plan: it applies at once, both ways (an admin's decision, not a purchase). A paid plan keeps a
 * running period or starts one (so renewals follow, with this admin as their actor); Free ends it. Credits are the
 * admin's separate choice.
 */
export function adminPlanPatch(state: LedgerState, plan: PlanId, now: number, actorId: string): UserPatch | null {
  const user = state.user;
  if (user.plan === plan && user.pendingPlan === null) return null;
  if (plan === "Free") return { plan, pendingPlan: null, periodStart: null, periodEnd: null, planSetBy: null };
  const running = user.periodEnd !== null && user.periodEnd > now;
  return {
    plan,
    pendingPlan: null,
    periodStart: running ? user.periodStart : now,
    periodEnd: running ? user.periodEnd : now + PLAN_PERIOD_MS,
    planSetBy: actorId,
  };
}

export interface AdminEditOutcome {
  credits: Credits;
  plan: { plan: string; pendingPlan: PlanId | null };
  creditsChanged: boolean;
  planChanged: boolean;
}

export interface AdminEditInput {
  key: string;
  plan: PlanId;
  /** The balance the admin's form showed: the balance is set only if it is still this (compare-and-set). */
  expectedBalance: number;
  newBalance: number;
  actorId: string;
  reason: string;
  /** The admin's session: its step-up (read by the ledger from D1) must be fresh for a plan or balance change. */
  stepUp: { sessionId: string };
}

/** What an admin edit would change on an account, decided on the state (the one rule for when step-up is asked). */
export function adminEditChanges(
  user: Pick<LedgerState["user"], "plan" | "pendingPlan">,
  input: Pick<AdminEditInput, "plan" | "expectedBalance" | "newBalance">,
) {
  return {
    planChanged: user.plan !== input.plan || user.pendingPlan !== null,
    balanceChanged: input.newBalance !== input.expectedBalance,
  };
}

/** A step-up proof is fresh for STEP_UP_MS after the admin entered their password on that session. */
export const stepUpFresh = (stepUpAt: number | null | undefined, now: number) =>
  stepUpAt !== null && stepUpAt !== undefined && now - stepUpAt < STEP_UP_MS;

/**
 * The admin Users screen's edit: plan and balance in one decision, idempotent on the form's key. Money needs the
 * admin's fresh step-up, decided on what would change here (not on a read before). The balance is compare-and-set:
 * an unchanged field writes nothing, and a balance that moved since the form was shown (a clip, a payment) is
 * refused with 409 instead of being silently overwritten.
 */
export function adminEdit(
  state: LedgerState,
  input: AdminEditInput,
  facts: Facts,
  ctx: DecideContext,
): Decision<AdminEditOutcome> {
  return decide(state, ctx, (): Draft<AdminEditOutcome> => {
    const outcome = (creditsChanged: boolean, planChanged: boolean, replayed = false) =>
      success<AdminEditOutcome>(
        {
          credits: creditsOf(state, ctx.now),
          plan: { plan: state.user.plan, pendingPlan: state.user.pendingPlan },
          creditsChanged,
          planChanged,
        },
        replayed,
      );
    const previous = previousKey(state, input.key, facts.hash);
    if (previous) return { result: previous.ok ? outcome(false, false, true) : previous };
    if (!Number.isInteger(input.newBalance) || input.newBalance < 0)
      return { result: fail("invalid_balance", "Credits must be a whole number of at least 0.") };
    const { planChanged, balanceChanged } = adminEditChanges(state.user, input);
    if (balanceChanged && state.user.credits !== input.expectedBalance)
      return {
        result: fail(
          "balance_changed",
          `The balance changed to ${state.user.credits} credits since this form was opened. Nothing was saved: check it and save again.`,
        ),
      };
    if (balanceChanged && !input.reason)
      return { result: fail("reason_required", "Please give a reason for the credit change.") };
    if ((planChanged || balanceChanged) && !stepUpFresh(facts.stepUpAt, ctx.now))
      return { result: fail("step_up_required", ADMIN_RIGHTS_MESSAGES.stepUpNeeded) };
    const writes: Write[] = [];
    const patch = planChanged ? adminPlanPatch(state, input.plan, ctx.now, input.actorId) : null;
    if (patch) writes.push(patchUser(state, patch));
    if (balanceChanged) {
      const adjusted = adjustDraft(state, input, facts, ctx);
      if (!adjusted.result.ok) return { result: adjusted.result };
      writes.push(...(adjusted.writes ?? []));
    }
    return {
      result: outcome(balanceChanged, patch !== null),
      writes,
      wakeAt: patch?.periodEnd ?? null,
      adminUsers: writes.length > 0,
    };
  });
}

/**
 * Ban or unban. A ban ends access: after the commit the object closes the user's sockets and forgets their token
 * checks. An unban is enforced by the very next request, since the ledger decides on this state.
 */
export function setBanned(
  state: LedgerState,
  input: { banned: boolean },
  ctx: DecideContext,
): Decision<{ changed: boolean }> {
  return decide(state, ctx, (): Draft<{ changed: boolean }> => {
    if (state.user.banned === input.banned) return { result: success({ changed: false }, true) };
    return {
      result: success({ changed: true }),
      writes: [patchUser(state, { banned: input.banned })],
      endAccess: input.banned ? "account banned" : undefined,
      forgetTokens: true,
      adminUsers: true,
    };
  });
}

/** The key of an account's closing row: one per account, so a repeated deletion is a replay. */
export const CLOSE_KEY = "account-closed";
/** Words shorter than this are not erased from descriptions (a two-letter name would garble every row). */
const MIN_ERASED_WORD = 3;

export interface CloseAccountInput {
  /** Who deletes it: the person themself, or an admin. */
  actorId: string;
  /** Words the account's ledger rows must no longer hold: the person's e-mail address and name. */
  erase: string[];
}

/**
 * The account is deleted. Its team ops ran first (an owner's members left, a member left), so a team still here is
 * refused. Held credits are released, the balance goes to zero in one row (kept, as the law keeps the ledger), the
 * plan ends at once, and the account is banned so that nothing is decided for it again (no starter reset either).
 * Paid lines grant no month that begins later. Its clips are erased and its rows forget the person's words; access
 * ends after the commit. A second deletion is a replay.
 */
export function closeAccount(
  state: LedgerState,
  input: CloseAccountInput,
  facts: Facts,
  ctx: DecideContext,
): Decision<{ creditsCancelled: number }> {
  return decide(state, ctx, (): Draft<{ creditsCancelled: number }> => {
    const previous = previousKey(state, CLOSE_KEY, facts.hash);
    if (previous) return { result: previous.ok ? success({ creditsCancelled: 0 }, true) : previous };
    if (state.members.length > 0 || state.payer !== null) return { result: fail("team_open", TEAM_OPEN_MESSAGE) };
    const writes: Write[] = [];
    const held = [...state.holds.keys()];
    if (held.length > 0) {
      state.holds = new Map();
      writes.push({ type: "settleHolds", ids: held, status: "released", clipId: null });
    }
    for (const line of state.lines.values()) {
      const later = line.months.some((m) => m.start > ctx.now);
      if (!later || (line.stopAt !== null && line.stopAt <= ctx.now)) continue;
      const stopped = { ...line, stopAt: ctx.now };
      state.lines.set(line.id, stopped);
      writes.push({ type: "line", line: stopped });
    }
    const cancelled = state.user.credits;
    const closed = applyDelta(state, ctx, {
      key: CLOSE_KEY,
      hash: facts.hash,
      delta: cancelled === 0 ? 0 : -cancelled,
      kind: "account_closed",
      description: "Account deleted: its credits were cancelled",
      actorId: input.actorId,
      patch: { plan: "Free", pendingPlan: null, periodStart: null, periodEnd: null, planSetBy: null, banned: true },
    });
    if (!closed.result.ok) return { result: closed.result };
    writes.push(...(closed.writes ?? []));
    // The clips go with the account: memory forgets them too (a replayed key no longer answers with one).
    state.clipCount = 0;
    for (const [key, memo] of state.keys) if (memo.clip) state.keys.set(key, { ...memo, clip: null });
    const words = [...new Set(input.erase.map((w) => w.trim()).filter((w) => w.length >= MIN_ERASED_WORD))];
    writes.push({ type: "erase", words });
    return {
      result: success({ creditsCancelled: cancelled }),
      writes,
      endAccess: "account deleted",
      adminUsers: true,
    };
  });
}
