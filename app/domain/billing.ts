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
  /** The plan a subscription schedule moves to at the period end (a downgrade to another interval), if any. */
  scheduled?: { plan: PaidPlanId; billing: Billing } | null;
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
  const next: PlanId | null = facts.cancelAtPeriodEnd
    ? "Free"
    : (facts.scheduled?.plan ?? (current !== facts.plan ? facts.plan : null));
  return { current, next };
}

export type PlanChangeIntent =
  /** No subscription: a paid plan above the one in force is bought through Stripe Checkout. */
  | { kind: "checkout"; plan: PaidPlanId; interval: Billing }
  /** Prorated and invoiced at once; applied only when that invoice is paid. */
  | { kind: "upgradeNow"; plan: PaidPlanId; interval: Billing }
  /**
   * The plan paid for stays until the period end. In the same interval: the new price from now without proration.
   * In another one (`schedule`): a subscription schedule changes the price at the period end, since a new interval
   * starts a new billing cycle the moment the price changes.
   */
  | {
      kind: "downgradeAtPeriodEnd";
      plan: PaidPlanId;
      interval: Billing;
      paidPlan: PaidPlanId;
      paidUntil: number;
      schedule: boolean;
    }
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
  const waiting = sub.scheduled ?? { plan: sub.plan, billing: sub.billing };
  if (next === target && waiting.plan === target && waiting.billing === interval && !sub.cancelAtPeriodEnd)
    return { kind: "none" };
  return {
    kind: "downgradeAtPeriodEnd",
    plan: target,
    interval,
    paidPlan: current,
    paidUntil: sub.periodEnd,
    schedule: interval !== sub.billing,
  };
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

// ── Every credit is backed by money Stripe kept ──────────────────────────────────────────────────────────────────
//
// A paid invoice line (or a paid pack) is a `PaidLine`: the money it charged and the credit months that money pays
// for. The one rule (`lineTarget`): a line's credits in the balance are those of its months that have begun, never
// more than its credits times the share of its money Stripe still keeps. Money going back — a refund (pending
// counts), a lost dispute, a proration credit for unused time — lowers that share; a failed refund or a won dispute
// raises it again. The ledger moves each line's granted credits to its target (`settleLine`): up is a grant, down a
// take-back as far as the credits are unspent; what was spent stays owed, on the line, for the admin to see.

/** A credit month a line pays for: it is granted once it has begun. */
export interface LineMonth {
  start: number;
  credits: number;
}

export interface PaidLine {
  /** Stripe's id of the line (`il_…`), or of the pack's payment intent. */
  id: string;
  /** The invoice (or pack payment intent) that paid it: what a refund or a dispute names. */
  paymentId: string;
  subscriptionId: string | null;
  /** What it paid for, for people: "Pro plan, yearly". */
  label: string;
  plan: PaidPlanId | null;
  billing: Billing | null;
  /** The time it paid for (a pack: the moment it was paid). */
  start: number;
  end: number;
  chargedCents: number;
  months: LineMonth[];
  /** Money sent back, by what sent it (a refund, a dispute, a proration credit line): set, never added. */
  returned: Record<string, number>;
  /** Credits it put in the balance, less what was taken back. */
  granted: number;
  /** Its subscription ended at this time: months that begin later are not granted. */
  stopAt: number | null;
  /** Ledger rows written for it (their keys are `line:<id>:<n>`). */
  moves: number;
}

/** A positive line of a paid invoice, or a paid pack, as the webhook reads it. */
export interface PaidLineInput {
  id: string;
  paymentId: string;
  subscriptionId: string | null;
  chargedCents: number;
  start: number;
  end: number;
  /** A plan's price (its months come from the plan) or a pack (all its credits at once). */
  item: { plan: PaidPlanId; billing: Billing } | { pack: string; credits: number };
}

/** Money going back, and the lines it paid for. */
export interface MoneyReturned {
  /** The refund, dispute or credit line that sent it. */
  id: string;
  cents: number;
  /** The payment it comes out of, or the lines a proration credit names (`credited_items`). */
  from: { payment: string } | { lines: string[] };
}

/** The end of a billing period minus one interval, as Stripe counts calendar months and years. */
function periodStartOf(end: number, billing: Billing): number {
  const d = new Date(end);
  if (billing === "yearly") d.setUTCFullYear(d.getUTCFullYear() - 1);
  else d.setUTCMonth(d.getUTCMonth() - 1);
  return d.getTime();
}

/**
 * The credit months a plan line pays for: the 30-day credit months of its billing period (a year: 12) that it
 * covers, each worth its plan's monthly credits times the share of the month it covers (a proration line for the
 * last hour of a month pays for 1/720 of it).
 */
export function planLineMonths(plan: PaidPlanId, billing: Billing, start: number, end: number): LineMonth[] {
  const periodStart = Math.min(start, periodStartOf(end, billing));
  const count = Math.max(1, Math.round((end - periodStart) / PLAN_PERIOD_MS));
  const months: LineMonth[] = [];
  for (let k = count - 1; k >= 0; k--) {
    const monthEnd = end - k * PLAN_PERIOD_MS;
    const monthStart = k === count - 1 ? periodStart : monthEnd - PLAN_PERIOD_MS;
    const covered = Math.min(end, monthEnd) - Math.max(start, monthStart);
    if (covered <= 0) continue;
    const credits = Math.round((monthlyCredits(plan) * covered) / (monthEnd - monthStart));
    if (credits > 0) months.push({ start: Math.max(start, monthStart), credits });
  }
  return months;
}

export function newPaidLine(input: PaidLineInput): PaidLine {
  const { item } = input;
  const plan = "plan" in item;
  return {
    id: input.id,
    paymentId: input.paymentId,
    subscriptionId: input.subscriptionId,
    label: plan ? `${item.plan} plan, ${item.billing}` : `Credit pack: ${item.pack}`,
    plan: plan ? item.plan : null,
    billing: plan ? item.billing : null,
    start: input.start,
    end: input.end,
    chargedCents: input.chargedCents,
    months: plan
      ? planLineMonths(item.plan, item.billing, input.start, input.end)
      : [{ start: input.start, credits: item.credits }],
    returned: {},
    granted: 0,
    stopAt: null,
    moves: 0,
  };
}

export const lineCredits = (line: PaidLine) => line.months.reduce((sum, m) => sum + m.credits, 0);
export const keptCents = (line: PaidLine) =>
  Math.max(0, line.chargedCents - Object.values(line.returned).reduce((sum, c) => sum + c, 0));

/** The credits a line's kept money backs: its credits times the share of its money Stripe still keeps. */
export function backedCredits(line: PaidLine): number {
  if (line.chargedCents <= 0) return lineCredits(line);
  return Math.floor((lineCredits(line) * keptCents(line)) / line.chargedCents);
}

/**
 * Where a line's granted credits should be now: up to its begun months, never above what its money backs. Only
 * money moves it down — a month granted stays granted however the clock is read later (a test clock ahead of the
 * ledger's, a replay), and a subscription's end only stops the months not yet begun.
 */
export function lineTarget(line: PaidLine, now: number): number {
  const backed = backedCredits(line);
  if (line.granted > backed) return backed;
  const begun = line.months
    .filter((m) => m.start <= now && (line.stopAt === null || m.start < line.stopAt))
    .reduce((sum, m) => sum + m.credits, 0);
  return Math.max(line.granted, Math.min(begun, backed));
}

/**
 * What the ledger does for one line now: grant up to its target, or take back down to it as far as `available`
 * allows. `owed`: credits its money no longer backs that were already spent (taken as soon as the balance has them).
 */
export function settleLine(line: PaidLine, now: number, available: number): { delta: number; owed: number } {
  const diff = lineTarget(line, now) - line.granted;
  if (diff >= 0) return { delta: diff, owed: 0 };
  const taken = Math.min(-diff, Math.max(0, available));
  return { delta: -taken, owed: -diff - taken };
}

/**
 * Spreads money going back over the lines it paid for, by what each charged (a partial refund of an upgrade's
 * invoice comes out of its new plan's line), never more than a line still keeps. Answers line id → cents.
 */
export function spreadReturn(lines: readonly PaidLine[], ret: MoneyReturned): Map<string, number> {
  const named = "payment" in ret.from ? null : new Set(ret.from.lines);
  const payment = "payment" in ret.from ? ret.from.payment : null;
  const hit = lines.filter((l) => (named ? named.has(l.id) : l.paymentId === payment));
  const out = new Map<string, number>();
  const charged = hit.reduce((sum, l) => sum + l.chargedCents, 0);
  let left = ret.cents;
  hit.forEach((line, i) => {
    const others = keptCents(line) + (line.returned[ret.id] ?? 0);
    const share = i === hit.length - 1 ? left : Math.round((ret.cents * line.chargedCents) / Math.max(1, charged));
    const cents = Math.max(0, Math.min(share, others));
    out.set(line.id, cents);
    left -= cents;
  });
  return out;
}

/**
 * The money-back guarantee, priced over everything the payment paid for: it returns the money of every credit not
 * yet spent — the months not yet granted as well as the unspent ones in the balance (counted as this payment's
 * first) — and keeps the money of the credits spent. A yearly plan refunded after one month with 2,000 credits
 * spent returns $552 × 118,000 / 120,000. Nothing refunds spent credits, so the take-back that follows never falls
 * short.
 */
export function moneyBack(
  lines: readonly PaidLine[],
  available: number,
): { cents: number; unspentCredits: number; spentCredits: number } {
  let cents = 0;
  let left = Math.max(0, available);
  let unspent = 0;
  let spent = 0;
  for (const line of lines) {
    const kept = keptCents(line);
    const credits = lineCredits(line);
    const backed = backedCredits(line);
    const inBalance = Math.min(line.granted, left);
    left -= inBalance;
    const lineSpent = line.granted - inBalance;
    spent += lineSpent;
    unspent += Math.max(0, backed - lineSpent);
    // The money of the spent credits stays; everything else this line still keeps goes back.
    const keep = credits > 0 ? Math.ceil((line.chargedCents * lineSpent) / credits) : 0;
    cents += Math.max(0, kept - keep);
  }
  return { cents, unspentCredits: unspent, spentCredits: spent };
}
