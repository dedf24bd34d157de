/**
 * A Stripe subscription, re-read, made true in the ledger: plan, pending plan and credit month; a second subscription
 * cancelled and refunded; an ended one's later months not granted.
 */
import { subscriptionPlans, type SubscriptionFacts } from "~/domain/billing";
import { effectivePlan, formatCents, planOfLookupKey, type PaidPlanId } from "~/domain/plans";
import { runningSubscription, saveSubscription, userEmail } from "~/db/billing.server";
import { actionEmail, sendEmail } from "./email.server";
import { ledger } from "./ledger.server";
import { idOf, msOf, type BillingStripe, type Stripe } from "./stripe.server";
import { invoicePaymentIntent, must, NotOurs, userOf, type Ctx } from "./stripe-events.server";

const paidPlanOf = (value: string | null | undefined): PaidPlanId | null => {
  const plan = effectivePlan(value);
  return plan === "Free" ? null : plan;
};

/** A subscription with its schedule's phases and their prices, which the facts read (`retrieveSubscription`). */
const WITH_SCHEDULE = ["schedule.phases.items.price"];

/** The subscription as Stripe has it now, with the schedule that manages it, if any. */
export const retrieveSubscription = (client: BillingStripe, id: string) =>
  client.stripe.subscriptions.retrieve(id, { expand: WITH_SCHEDULE });

/** The schedule managing a subscription now (read expanded), or null. */
export function activeSchedule(sub: Stripe.Subscription): Stripe.SubscriptionSchedule | null {
  const schedule = sub.schedule;
  return schedule && typeof schedule !== "string" && schedule.status === "active" ? schedule : null;
}

/** The plans of a schedule's current phase and of the one after it (expanded prices), as far as we sell them. */
function schedulePlans(schedule: Stripe.SubscriptionSchedule | null) {
  const phase = schedule?.current_phase;
  const planAt = (start: number | undefined) => {
    const price = schedule?.phases.find((p) => p.start_date === start)?.items[0]?.price;
    return price && typeof price !== "string" && !price.deleted ? planOfLookupKey(price.lookup_key) : null;
  };
  return { current: planAt(phase?.start_date), next: planAt(phase?.end_date) };
}

/**
 * The subscription's facts for the ledger; null when its price is not one we sell. A schedule managing it (a
 * downgrade to another interval) gives the plan in force (its current phase's) and the plan that follows.
 */
export function subscriptionFacts(sub: Stripe.Subscription): SubscriptionFacts | null {
  const item = sub.items.data[0];
  const phases = schedulePlans(activeSchedule(sub));
  const priced = phases.current ?? planOfLookupKey(item?.price.lookup_key);
  if (!item || !priced) return null;
  const paidUntil = Number(sub.metadata?.clipcut_paid_until);
  const next = phases.next;
  return {
    status: sub.status,
    plan: priced.plan,
    billing: priced.billing,
    scheduled: next && (next.plan !== priced.plan || next.billing !== priced.billing) ? next : null,
    periodStart: msOf(item.current_period_start),
    periodEnd: msOf(item.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    paidPlan: paidPlanOf(sub.metadata?.clipcut_paid_plan),
    paidUntil: Number.isFinite(paidUntil) && paidUntil > 0 ? paidUntil : null,
  };
}

const RUNNING = ["active", "trialing", "past_due"];
const ENDED = ["canceled", "incomplete_expired", "unpaid"];

/** Re-reads a subscription and brings the user's plan in line with it (one ledger operation). */
export async function syncSubscription(ctx: Ctx, subscriptionId: string) {
  let sub = await retrieveSubscription(ctx.client, subscriptionId);
  const facts = subscriptionFacts(sub);
  if (!facts) throw new NotOurs(`Subscription ${sub.id} is not for a price ClipCut sells.`);
  const userId = await userOf(ctx, sub.customer, sub.metadata);
  const running = await runningSubscription(ctx.db, userId);
  // A second subscription while one is running (two checkout tabs): it is cancelled and refunded, never applied.
  if (running !== null && running.id !== sub.id && RUNNING.includes(sub.status))
    sub = await cancelDuplicate(ctx, sub, userId, running.id);
  const duplicate = Boolean(sub.metadata?.clipcut_duplicate_of);
  // An old subscription that ended must not take the plan of a newer one away.
  const superseded = running !== null && running.id !== sub.id && !RUNNING.includes(sub.status);
  if (!superseded && !duplicate) must(await ledger(ctx.env, userId).applySubscription({ facts }));
  // An ended subscription's paid lines grant no month that begins after its end.
  if (ENDED.includes(sub.status)) {
    const at = msOf(sub.ended_at ?? sub.canceled_at ?? Math.floor(Date.now() / 1000));
    must(await ledger(ctx.env, userId).followMoney({ ended: { subscriptionId: sub.id, at } }));
  }
  const { current, next } = subscriptionPlans(facts);
  await saveSubscription(ctx.db, {
    id: sub.id,
    userId,
    status: sub.status,
    plan: current,
    interval: facts.billing,
    pendingPlan: next,
    currentPeriodStart: new Date(facts.periodStart),
    currentPeriodEnd: new Date(facts.periodEnd),
    updatedAt: new Date(),
  });
  return { userId, facts, duplicate };
}

/**
 * Cancels a duplicate subscription at once, refunds what its first invoice took and tells the user. Marked first
 * (our own metadata), so its invoice grants nothing whichever event comes next; every step is idempotent.
 */
async function cancelDuplicate(ctx: Ctx, sub: Stripe.Subscription, userId: string, keptId: string) {
  const { stripe } = ctx.client;
  await stripe.subscriptions.update(
    sub.id,
    { metadata: { clipcut_duplicate_of: keptId } },
    { idempotencyKey: `duplicate:${sub.id}:mark` },
  );
  const cancelled = await stripe.subscriptions.cancel(sub.id, {}, { idempotencyKey: `duplicate:${sub.id}:cancel` });
  const invoiceId = idOf(sub.latest_invoice);
  const invoice = invoiceId ? await stripe.invoices.retrieve(invoiceId, { expand: ["payments"] }) : null;
  const paymentIntent = invoice ? invoicePaymentIntent(invoice) : null;
  if (invoice && paymentIntent && invoice.amount_paid > 0)
    await stripe.refunds.create(
      {
        payment_intent: paymentIntent,
        amount: invoice.amount_paid,
        reason: "duplicate",
        metadata: { reason: "second subscription cancelled", user_id: userId },
      },
      { idempotencyKey: `duplicate:${sub.id}:refund` },
    );
  const user = await userEmail(ctx.db, userId);
  const priced = subscriptionFacts(sub);
  if (user)
    await sendEmail(
      { env: ctx.env, db: ctx.db },
      actionEmail({
        to: user.email,
        subject: "We cancelled a second ClipCut subscription",
        intro:
          `You completed a second checkout${priced ? ` (${priced.plan}, ${priced.billing})` : ""} while a subscription was already running. ` +
          `We cancelled the second one at once` +
          (invoice && invoice.amount_paid > 0 ? ` and refunded its ${formatCents(invoice.amount_paid)} in full` : "") +
          ". Your existing subscription is unchanged.",
        action: "Change your plan here instead",
        url: `${ctx.origin}/billing/plan`,
        outro: "Refunds reach your card within 5–10 business days. Nothing else is needed from you.",
      }),
    );
  return { ...cancelled, metadata: { ...cancelled.metadata, clipcut_duplicate_of: keptId } };
}
