/** Account operations: the welcome grant, the plugin bonus, the starter reset, admin edits and bans. */
import type { Credits } from "../api";
import { NEW_USER_CREDITS, PLUGIN_CONNECT_CREDITS } from "../credits";
import { effectivePlan, PLAN_PERIOD_MS, type PlanId } from "../plans";
import { applyDelta, creditsOf, decide, fail, patchUser, success, type Draft } from "./core";
import type { DecideContext, Decision, Facts, LedgerState, UserPatch, Write } from "./types";

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

/** The spec's rule: a Free user with 0 credits and no clips gets 100 back — once, ever. */
export function starterReset(state: LedgerState, facts: Facts, ctx: DecideContext): Decision<{ credits: Credits }> {
  return decide(state, ctx, () => {
    const eligible = effectivePlan(state.user.plan) === "Free" && state.user.credits === 0 && facts.clipCount === 0;
    if (!eligible || state.user.banned) return { result: success({ credits: creditsOf(state, ctx.now) }, true) };
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
    return { result: fail(422, "invalid_input", "Credits must be a whole number of at least 0.") };
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
 * running period or starts one (so renewals follow); Free ends it. Credits are the admin's separate choice.
 */
export function adminPlanPatch(state: LedgerState, plan: PlanId, now: number): UserPatch | null {
  const user = state.user;
  if (user.plan === plan && user.pendingPlan === null) return null;
  if (plan === "Free") return { plan, pendingPlan: null, periodStart: null, periodEnd: null };
  const running = user.periodEnd !== null && user.periodEnd > now;
  return {
    plan,
    pendingPlan: null,
    periodStart: running ? user.periodStart : now,
    periodEnd: running ? user.periodEnd : now + PLAN_PERIOD_MS,
  };
}

export interface AdminEditOutcome {
  credits: Credits;
  plan: { plan: string; pendingPlan: PlanId | null };
  creditsChanged: boolean;
  planChanged: boolean;
}

/** The admin Users screen's edit: plan and balance in one decision, idempotent on the form's key. */
export function adminEdit(
  state: LedgerState,
  input: { key: string; plan: PlanId; newBalance: number; actorId: string; reason: string },
  facts: Facts,
  ctx: DecideContext,
): Decision<AdminEditOutcome> {
  return decide(state, ctx, (): Draft<AdminEditOutcome> => {
    const writes: Write[] = [];
    const patch = adminPlanPatch(state, input.plan, ctx.now);
    if (patch) writes.push(patchUser(state, patch));
    let creditsChanged = false;
    if (input.newBalance !== state.user.credits || state.keys.has(input.key)) {
      if (!input.reason && input.newBalance !== state.user.credits)
        return { result: fail(400, "invalid_input", "Please give a reason for the credit change.") };
      const adjusted = adjustDraft(state, input, facts, ctx);
      if (!adjusted.result.ok) return { result: adjusted.result };
      creditsChanged = !adjusted.result.replayed;
      writes.push(...(adjusted.writes ?? []));
    }
    return {
      result: success({
        credits: creditsOf(state, ctx.now),
        plan: { plan: state.user.plan, pendingPlan: state.user.pendingPlan },
        creditsChanged,
        planChanged: patch !== null,
      }),
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
      adminUsers: true,
    };
  });
}
