/**
 * Pure decisions of the payment operations of the ledger: what a Stripe subscription means for the user's plan
 * fields, what an invoice or a pack grants, what a refund takes back. No I/O; the UserLedger applies them.
 * See docs/decisions/011-payments.md.
 */
import {
  formatCents,
  monthlyCredits,
  PLAN_PERIOD_MS,
  planRank,
  type Billing,
  type PaidPlanId,
  type PlanId,
} from "./plans";

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

export type PlanChangeIntent =
  /** No subscription: a paid plan above the one in force is bought through Stripe Checkout. */
  | { kind: "checkout"; plan: PaidPlanId; interval: Billing }
  /** Prorated and invoiced at once; applied only when that invoice is paid. */
  | { kind: "upgradeNow"; plan: PaidPlanId; interval: Billing }
  /** The new price from now without proration; the plan paid for stays until the period end. */
  | { kind: "downgradeAtPeriodEnd"; plan: PaidPlanId; interval: Billing; paidPlan: PaidPlanId; paidUntil: number }
  | { kind: "cancelAtPeriodEnd" }
  /** Asking for the plan in force drops a scheduled downgrade or cancel. */
  | { kind: "undoPending"; plan: PaidPlanId; interval: Billing }
  /** The same plan billed the other way: a new period starts now, prorated. */
  | { kind: "switchInterval"; plan: PaidPlanId; interval: Billing }
  /** A plan given without a subscription (by an admin) moves down: the ledger alone decides, no money moves. */
  | { kind: "ledgerOnly"; plan: PlanId }
  | { kind: "none" };

/**
 * The one rule for a creator's change of plan: upgrade now, downgrade or cancel at the period end, switch the
 * interval, undo a pending change — or buy through Checkout when nothing is subscribed. The billing service executes
 * what this answers; nothing else decides it.
 */
export function planChangeIntent(input: {
  /** The plan in force for the user (the ledger's). */
  current: PlanId;
  /** The ledger's pending plan. */
  pending: PlanId | null;
  /** The running subscription as Stripe has it now, or null. */
  subscription: SubscriptionFacts | null;
  target: PlanId;
  interval: Billing;
  now: number;
}): PlanChangeIntent {
  const { target, interval } = input;
  const sub = input.subscription;
  // A subscription that ended, or a cancelled one past its end (Stripe deletes it shortly), is no subscription.
  const running = sub !== null && IN_FORCE.has(sub.status) && !(sub.cancelAtPeriodEnd && sub.periodEnd <= input.now);
  if (!running) {
    if (target !== "Free" && planRank(target) > planRank(input.current))
      return { kind: "checkout", plan: target, interval };
    if (target === input.current && input.pending === null) return { kind: "none" };
    return { kind: "ledgerOnly", plan: target };
  }
  const { current, next } = subscriptionPlans(sub);
  if (target === "Free") return sub.cancelAtPeriodEnd ? { kind: "none" } : { kind: "cancelAtPeriodEnd" };
  if (target === current) {
    if (interval !== sub.billing) return { kind: "switchInterval", plan: target, interval };
    return next === null ? { kind: "none" } : { kind: "undoPending", plan: target, interval };
  }
  if (planRank(target) > planRank(current)) return { kind: "upgradeNow", plan: target, interval };
  if (next === target && sub.plan === target && sub.billing === interval && !sub.cancelAtPeriodEnd)
    return { kind: "none" };
  return { kind: "downgradeAtPeriodEnd", plan: target, interval, paidPlan: current, paidUntil: sub.periodEnd };
}

/**
 * An upgrade Stripe holds as a pending update (payment_behavior pending_if_incomplete): its invoice was not paid, so
 * nothing changed yet. It applies once the invoice is paid, and is dropped (the invoice voided) at `expiresAt`.
 */
export interface PendingUpgrade {
  plan: PaidPlanId;
  /** The bank asks the customer to confirm (3-D Secure), or the card was declined. */
  reason: "authentication" | "declined";
  amountCents: number;
  /** Stripe's hosted page where the invoice is confirmed or paid. */
  invoiceUrl: string | null;
  expiresAt: number;
}

/**
 * What a creator is told about a pending upgrade: what happened (nothing charged, the plan in force stays) and what
 * to do before it expires. `when` is the expiry as the page shows it.
 */
export function pendingUpgradeNotice(
  pending: PendingUpgrade,
  current: PlanId,
  when: string,
): { title: string; detail: string; action: string } {
  const amount = formatCents(pending.amountCents);
  if (pending.reason === "authentication")
    return {
      title: `Your upgrade to ${pending.plan} is waiting for your bank.`,
      detail:
        `Your bank asks you to confirm the payment of ${amount} (3-D Secure). You stay on ${current} until you do; ` +
        `nothing has been charged. If it is not confirmed by ${when}, the upgrade is cancelled.`,
      action: "Confirm the payment",
    };
  return {
    title: `Your upgrade to ${pending.plan} did not go through.`,
    detail:
      `Your card was declined, so you stay on ${current} and nothing was charged. Update your card on the Billing ` +
      `page, then pay the upgrade invoice of ${amount} before ${when}; after that the upgrade is cancelled.`,
    action: "Pay the upgrade invoice",
  };
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
  // A credit month inside the paid period is the renewal alarm's to grant first; one that starts this Stripe
  // period was paid by its invoice, so the fields move on.
  const renewalDue =
    user.planPeriodEnd !== null &&
    user.planPeriodEnd <= now &&
    user.planPeriodEnd > facts.periodStart &&
    user.plan === current;
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

/** One line of a Stripe invoice, reduced to what a grant needs (times in ms). */
export interface InvoiceLine {
  /** What the line charged, in cents: negative for a proration's credit for unused time. */
  amount: number;
  /** Stripe marked it as a proration (a change within a period). */
  proration: boolean;
  /** The plan of the line's price; null for anything we do not sell. */
  plan: PaidPlanId | null;
  billing: Billing | null;
  start: number;
  end: number;
}

/** The end of a billing period minus one interval, as Stripe counts calendar months and years. */
function periodStartOf(end: number, billing: Billing): number {
  const d = new Date(end);
  if (billing === "yearly") d.setUTCFullYear(d.getUTCFullYear() - 1);
  else d.setUTCMonth(d.getUTCMonth() - 1);
  return d.getTime();
}

/**
 * The credits an upgrade's invoice paid for: each priced line counts its plan's monthly credits for the part of the
 * current credit month it covers, added when it charged, taken away when it credited unused time. One hour of Pro
 * over Basic before renewal is 1/720 of the difference; the months after this one come from later invoices (or the
 * renewal alarm within a paid year). Derived only from the invoice's own lines and amounts.
 */
export function upgradeCredits(lines: readonly InvoiceLine[]): number {
  const priced = lines.filter((l) => l.plan !== null && l.billing !== null && l.end > l.start && l.amount !== 0);
  if (priced.length === 0) return 0;
  const changedAt = Math.min(...priced.map((l) => l.start));
  // The subscription's period after the change: the line that runs longest is the new price's.
  const latest = priced.reduce((a, b) => (b.end > a.end ? b : a));
  const month = creditMonth(periodStartOf(latest.end, latest.billing!), latest.end, changedAt);
  const length = month.end - month.start;
  let credits = 0;
  for (const line of priced) {
    const covered = Math.max(0, Math.min(line.end, month.end) - Math.max(line.start, month.start));
    credits += Math.sign(line.amount) * monthlyCredits(line.plan!) * (covered / length);
  }
  return Math.max(0, Math.round(credits));
}

/** The line that bills the subscription's price for a whole period (not a proration). */
const periodLine = (lines: readonly InvoiceLine[]) => lines.find((l) => !l.proration && l.plan !== null) ?? null;

/**
 * The credits a paid subscription invoice grants, once. A first invoice grants its plan's month; an upgrade's
 * prorated invoice what its lines charged for (upgradeCredits); a renewal invoice the new period's month under the
 * renewal alarm's own key (`renewal:<period start>`, same kind and text), so a period is credited once, by
 * whichever of the two arrives first. The plan is read from the invoice's lines, never from metadata.
 */
export function invoiceGrant(input: {
  invoiceId: string;
  billingReason: string | null;
  lines: readonly InvoiceLine[];
}): Grant | null {
  const { invoiceId, lines } = input;
  const line = periodLine(lines);
  switch (input.billingReason) {
    case "subscription_create":
      if (!line?.plan) return null;
      return {
        key: `stripe:invoice:${invoiceId}`,
        delta: monthlyCredits(line.plan),
        kind: "purchase",
        description: `${line.plan} plan credits (invoice ${invoiceId})`,
      };
    case "subscription_cycle":
      if (!line?.plan) return null;
      return {
        key: `renewal:${line.start}`,
        delta: monthlyCredits(line.plan),
        kind: "renewal",
        description: `${line.plan} plan credits`,
      };
    case "subscription_update": {
      const delta = upgradeCredits(lines);
      if (delta === 0) return null;
      const plan = lines.reduce<InvoiceLine | null>((a, b) => (b.amount > 0 && (!a || b.end > a.end) ? b : a), null);
      return {
        key: `stripe:invoice:${invoiceId}`,
        delta,
        kind: "purchase",
        description: `Upgrade to ${plan?.plan ?? "a new plan"}: credits for the rest of this month (invoice ${invoiceId})`,
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
 * The money-back guarantee returns only unspent value: the share of the payment whose credits are still in the
 * balance. Credits are counted as this payment's first (the most the creator can have back); what an earlier partial
 * refund took back is no longer the payment's. A payment that granted no credits is refunded whole.
 */
export function unspentRefund(input: {
  amountCents: number;
  refundedCents: number;
  grantedCredits: number;
  available: number;
}): { cents: number; unspentCredits: number; spentCredits: number } {
  const left = Math.max(0, input.amountCents - input.refundedCents);
  if (input.grantedCredits <= 0 || input.amountCents <= 0) return { cents: left, unspentCredits: 0, spentCredits: 0 };
  const stillGranted = Math.round(input.grantedCredits * (left / input.amountCents));
  const unspentCredits = Math.max(0, Math.min(stillGranted, input.available));
  const cents = Math.min(left, Math.round((input.amountCents * unspentCredits) / input.grantedCredits));
  return { cents, unspentCredits, spentCredits: stillGranted - unspentCredits };
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
