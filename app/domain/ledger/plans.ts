/** Plan operations: a creator's change of plan and the end of a paid period. */
import { effectivePlan, monthlyCredits, PLAN_PERIOD_MS, planRank, type PlanId } from "../plans";
import { nextLineMonth, settleLines } from "./billing";
import { applyDelta, BANNED_MESSAGE, decide, fail, patchUser, success, type Draft } from "./core";
import type { DecideContext, Decision, Facts, LedgerState, UserPatch, Write } from "./types";

export interface PlanChange {
  plan: string;
  pendingPlan: PlanId | null;
  effective: "now" | "period_end";
}

/** The ledger's answer to an upgrade asked of it directly: upgrades are bought, never set here. */
export const UPGRADE_NEEDS_PAYMENT =
  "An upgrade is bought through checkout and takes effect when its invoice is paid. Choose the plan on the Plan & Pricing page.";

/**
 * A change of plan that moves no money (billing's `ledgerOnly` intent: a plan given without a subscription): a move
 * down waits for the end of the period, or applies now when there is none; asking for the plan in force drops a
 * pending change. An upgrade is refused: upgrades and their credits come only from paid invoices
 * (followMoney / applySubscription), so no caller can raise a plan here without paying.
 */
export function changePlan(
  state: LedgerState,
  input: { plan: PlanId },
  _facts: Facts,
  ctx: DecideContext,
): Decision<PlanChange> {
  return decide(state, ctx, (): Draft<PlanChange> => {
    const { now } = ctx;
    const user = state.user;
    if (user.banned) return { result: fail("banned", BANNED_MESSAGE) };
    const current = effectivePlan(user.plan);
    const target = input.plan;
    if (target === current) {
      const result = success<PlanChange>({ plan: user.plan, pendingPlan: null, effective: "now" }, true);
      if (!user.pendingPlan) return { result };
      return { result, writes: [patchUser(state, { pendingPlan: null })] };
    }
    if (planRank(target) > planRank(current)) return { result: fail("upgrade_needs_payment", UPGRADE_NEEDS_PAYMENT) };
    if (user.periodEnd !== null && user.periodEnd > now) {
      return {
        result: success<PlanChange>({ plan: user.plan, pendingPlan: target, effective: "period_end" }),
        writes: [patchUser(state, { pendingPlan: target })],
        wakeAt: user.periodEnd,
      };
    }
    const patch: UserPatch = {
      plan: target,
      pendingPlan: null,
      periodStart: target === "Free" ? null : now,
      periodEnd: target === "Free" ? null : now + PLAN_PERIOD_MS,
      planSetBy: null,
    };
    const result = success<PlanChange>({ plan: target, pendingPlan: null, effective: "now" });
    return { result, writes: [patchUser(state, patch)], wakeAt: patch.periodEnd ?? null };
  });
}

/**
 * End of a paid period: apply a pending downgrade, start the next period and grant its credits (once per period,
 * key `renewal:<period start>`). Catches up on several missed periods. Answers when the current period ends.
 * A subscriber's months are credited here only inside the period Stripe was paid for (a yearly plan's months);
 * the month that starts a new Stripe period comes from its paid invoice, under the same key, and never while the
 * renewal is unpaid (past due).
 */
export function renew(state: LedgerState, facts: Facts, ctx: DecideContext): Decision<{ periodEnd: number | null }> {
  return decide(state, ctx, (): Draft<{ periodEnd: number | null }> => {
    const writes: Write[] = [];
    let granted = false;
    let awaitingInvoice = false;
    const paidUntil = facts.subscriptionPaidUntil ?? null;
    for (let guard = 0; guard < 24; guard++) {
      const user = state.user;
      if (user.periodEnd === null || user.periodEnd > ctx.now) break;
      const next: PlanId = user.pendingPlan ?? effectivePlan(user.plan);
      const start = user.periodEnd;
      if (paidUntil !== null && start >= paidUntil && next !== "Free") {
        awaitingInvoice = true;
        break;
      }
      if (next === "Free") {
        writes.push(patchUser(state, { plan: "Free", pendingPlan: null, periodStart: null, periodEnd: null }));
        break;
      }
      const patch: UserPatch = { plan: next, pendingPlan: null, periodStart: start, periodEnd: start + PLAN_PERIOD_MS };
      const key = `renewal:${start}`;
      // A subscriber's months are paid lines' (settled below): the credit month moves on with no grant of its own.
      if (paidUntil !== null || state.keys.has(key)) {
        // Granted before (memory lags D1 only after a restart mid-batch): move the period on without a grant.
        writes.push(patchUser(state, patch));
        continue;
      }
      const grant = applyDelta(state, ctx, {
        key,
        hash: facts.hash,
        delta: monthlyCredits(next),
        kind: "renewal",
        description: `${next} plan credits`,
        // A plan an admin set renews with that admin as the grant's actor.
        actorId: user.planSetBy ?? null,
        patch,
      });
      if (!grant.result.ok) return { result: grant.result };
      writes.push(...(grant.writes ?? []));
      granted = true;
    }
    // Months of paid lines that have begun are granted (a yearly invoice's later months).
    const settled = settleLines(state, ctx, facts.hash, "Payment returned", null);
    if ("failed" in settled) return { result: settled.failed };
    writes.push(...settled.writes);
    const periodEnd = state.user.periodEnd;
    // Waiting for Stripe's renewal invoice: its webhook moves the period on and wakes the object again.
    const lineMonth = nextLineMonth(state, ctx.now);
    const periodWake = awaitingInvoice ? null : periodEnd;
    const wakeAt = periodWake === null ? lineMonth : lineMonth === null ? periodWake : Math.min(periodWake, lineMonth);
    return { result: success({ periodEnd }), writes, wakeAt, adminUsers: granted || writes.length > 0 };
  });
}
