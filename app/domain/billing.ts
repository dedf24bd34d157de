/**
 * Pure decisions of the payment operations of the ledger: what a Stripe subscription means for the user's plan
 * fields, what an invoice or a pack grants, what a refund takes back. No I/O; the UserLedger applies them.
 * See docs/decisions/011-payments.md.
 */
import { monthlyCredits, PLAN_PERIOD_MS, type Billing, type PaidPlanId, type PlanId } from "./plans";

/** A subscription as re-read from Stripe, reduced to what the ledger needs (times in ms). */
export interface SubscriptionFacts {
  status: string;
  /** The plan of the subscription's current price. */
  plan: PaidPlanId;
  billing: Billing;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  /** A downgrade we scheduled: the plan paid for until `paidUntil` (the period end when it was asked for). */
  paidPlan: PaidPlanId | null;
  paidUntil: number | null;
}

export interface PlanFields {
  plan: PlanId;
  pendingPlan: PlanId | null;
  planPeriodStart: number | null;
  planPeriodEnd: number | null;
}

/** Subscription statuses after which Stripe charges no more: the plan is Free. */
const ENDED = new Set(["canceled", "incomplete_expired", "unpaid"]);
/** Statuses with a plan in force (past_due keeps it: the plan stays until Stripe ends the subscription). */
const IN_FORCE = new Set(["active", "trialing", "past_due"]);

/** The plan in force and the one that follows at the period end (null: no change). */
export function subscriptionPlans(facts: SubscriptionFacts): { current: PaidPlanId; next: PlanId | null } {
  const downgradePending = facts.paidPlan !== null && facts.paidUntil !== null && facts.periodEnd <= facts.paidUntil;
  const current = downgradePending && facts.paidPlan ? facts.paidPlan : facts.plan;
  const next: PlanId | null = facts.cancelAtPeriodEnd ? "Free" : current !== facts.plan ? facts.plan : null;
  return { current, next };
}

/**
 * The credit month that contains `now`. A Stripe period is cut into 30-day credit months counted back from its end
 * (a year: 12, the first one a little longer; a month: 1), so the renewal alarm, which moves a credit month on by
 * 30 days, lands exactly on the Stripe period end: "paid yearly, credited monthly".
 */
export function creditMonth(periodStart: number, periodEnd: number, now: number): { start: number; end: number } {
  const months = Math.max(1, Math.round((periodEnd - periodStart) / PLAN_PERIOD_MS));
  for (let k = months - 1; k >= 0; k--) {
    const end = periodEnd - k * PLAN_PERIOD_MS;
    if (end > now) return { start: k === months - 1 ? periodStart : end - PLAN_PERIOD_MS, end };
  }
  return { start: periodEnd - PLAN_PERIOD_MS < periodStart ? periodStart : periodEnd - PLAN_PERIOD_MS, end: periodEnd };
}

/**
 * The user's plan fields for a subscription. Null: leave them as they are (a first payment not yet made, or a
 * renewal of the current credit month already due, which the renewal alarm grants first).
 */
export function subscriptionPlanFields(facts: SubscriptionFacts, user: PlanFields, now: number): PlanFields | null {
  if (ENDED.has(facts.status)) return { plan: "Free", pendingPlan: null, planPeriodStart: null, planPeriodEnd: null };
  if (!IN_FORCE.has(facts.status)) return null;
  const { current, next } = subscriptionPlans(facts);
  const renewalDue = user.planPeriodEnd !== null && user.planPeriodEnd <= now && user.plan === current;
  if (renewalDue) return null;
  const month = creditMonth(facts.periodStart, facts.periodEnd, now);
  return {
    plan: current,
    // The ledger applies a pending plan at the end of its credit month: only the last month of the period may
    // carry it; earlier, Stripe's own update at the period end brings the change (the plan page shows it meanwhile).
    pendingPlan: month.end === facts.periodEnd ? next : null,
    planPeriodStart: month.start,
    planPeriodEnd: month.end,
  };
}

export interface Grant {
  key: string;
  delta: number;
  kind: "purchase" | "renewal" | "pack";
  description: string;
}

/**
 * The credits a paid subscription invoice grants, once. A first invoice grants the plan's month; an upgrade's
 * prorated invoice the difference between the two plans' months; a renewal invoice the new period's month under
 * the renewal alarm's own key (`renewal:<period start>`, same kind and text), so that period is credited once,
 * by whichever of the two arrives first.
 */
export function invoiceGrant(input: {
  invoiceId: string;
  billingReason: string | null;
  plan: PaidPlanId;
  previousPlan: PlanId | null;
  periodStart: number;
}): Grant | null {
  const { invoiceId, plan } = input;
  switch (input.billingReason) {
    case "subscription_create":
      return {
        key: `stripe:invoice:${invoiceId}`,
        delta: monthlyCredits(plan),
        kind: "purchase",
        description: `${plan} plan credits (invoice ${invoiceId})`,
      };
    case "subscription_cycle":
      return {
        key: `renewal:${input.periodStart}`,
        delta: monthlyCredits(plan),
        kind: "renewal",
        description: `${plan} plan credits`,
      };
    case "subscription_update": {
      const delta = Math.max(0, monthlyCredits(plan) - monthlyCredits(input.previousPlan ?? "Free"));
      if (delta === 0) return null;
      return {
        key: `stripe:invoice:${invoiceId}`,
        delta,
        kind: "purchase",
        description: `Upgrade to ${plan}: credits (invoice ${invoiceId})`,
      };
    }
    default:
      return null;
  }
}

export function packGrant(input: { paymentIntentId: string; credits: number; name: string }): Grant {
  return {
    key: `stripe:pack:${input.paymentIntentId}`,
    delta: input.credits,
    kind: "pack",
    description: `Credit pack: ${input.name}`,
  };
}

/**
 * What a refund takes back: the refunded share of the credits the payment granted, but only as far as they are
 * unspent — never more than the credits available now (the balance never goes below zero, holds stay covered).
 */
export function refundTakeBack(input: {
  refundId: string;
  refundCents: number;
  paymentCents: number;
  grantedCredits: number;
  available: number;
  reason: string;
}): { key: string; delta: number; description: string; wanted: number } {
  const share = input.paymentCents > 0 ? Math.min(1, input.refundCents / input.paymentCents) : 0;
  const wanted = Math.round(input.grantedCredits * share);
  const taken = Math.max(0, Math.min(wanted, input.available));
  const spent = wanted - taken;
  return {
    key: `stripe:refund:${input.refundId}`,
    delta: -taken,
    wanted,
    description:
      `Payment refunded (${input.reason}): ${taken} credits taken back` + (spent > 0 ? `, ${spent} already spent` : ""),
  };
}
