/**
 * What a creator (or an admin) asks of Stripe: Checkout for a plan or a pack, a change of a running subscription,
 * the Customer Portal, a refund. None of this changes plan or credits itself: Stripe's events do, through the
 * webhook and the ledger.
 */
import { subscriptionPlans } from "~/domain/billing";
import {
  creditPack,
  planRank,
  priceLookupKey,
  REFUND_WINDOW_MS,
  type Billing,
  type PaidPlanId,
  type PlanId,
} from "~/domain/plans";
import { customerIdOf, paymentById, runningSubscription, saveCustomer } from "~/db/billing.server";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { stripeFor, type BillingStripe } from "./stripe.server";
import { subscriptionFacts, syncSubscription } from "./stripe-webhook.server";

interface Who {
  id: string;
  email: string;
  fullName: string;
}

const priceIds = new Map<string, string>();

/** A price by its lookup key (never an id pasted into config); remembered per isolate. */
async function priceId(client: BillingStripe, lookupKey: string): Promise<string> {
  const known = priceIds.get(lookupKey);
  if (known) return known;
  const prices = await client.stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  const id = prices.data[0]?.id;
  if (!id) throw new Error(`No active Stripe price with lookup key ${lookupKey} (docs/payments.md).`);
  priceIds.set(lookupKey, id);
  return id;
}

/** The user's Stripe customer, created once (idempotency key per user, and one row per user in D1). */
async function ensureCustomer(client: BillingStripe, db: Db, user: Who): Promise<string> {
  const known = await customerIdOf(db, user.id);
  if (known) return known;
  const customer = await client.stripe.customers.create(
    { email: user.email, name: user.fullName, metadata: { user_id: user.id } },
    { idempotencyKey: `customer:${user.id}` },
  );
  return saveCustomer(db, user.id, customer.id);
}

/** Requests that repeat within this window reuse the same Checkout Session (a double click, a retry). */
const CHECKOUT_KEY_WINDOW_MS = 10 * 60 * 1000;
const window = () => Math.floor(Date.now() / CHECKOUT_KEY_WINDOW_MS);

export async function planCheckoutUrl(
  env: AppEnv,
  db: Db,
  origin: string,
  user: Who,
  plan: PaidPlanId,
  billing: Billing,
) {
  const client = stripeFor(env, db);
  const customer = await ensureCustomer(client, db, user);
  const lookupKey = priceLookupKey(plan, billing);
  const session = await client.stripe.checkout.sessions.create(
    {
      mode: "subscription",
      customer,
      client_reference_id: user.id,
      line_items: [{ price: await priceId(client, lookupKey), quantity: 1 }],
      subscription_data: { metadata: { user_id: user.id, clipcut_plan: plan } },
      metadata: { user_id: user.id, plan, billing },
      success_url: `${origin}/billing/plan?checkout=success&plan=${plan}`,
      cancel_url: `${origin}/billing/plan?checkout=cancelled`,
    },
    { idempotencyKey: `checkout:${user.id}:${lookupKey}:${window()}` },
  );
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL.");
  return session.url;
}

export async function packCheckoutUrl(env: AppEnv, db: Db, origin: string, user: Who, packId: string) {
  const pack = creditPack(packId);
  if (!pack) return null;
  const client = stripeFor(env, db);
  const customer = await ensureCustomer(client, db, user);
  const session = await client.stripe.checkout.sessions.create(
    {
      mode: "payment",
      customer,
      client_reference_id: user.id,
      line_items: [{ price: await priceId(client, pack.id), quantity: 1 }],
      metadata: { user_id: user.id, pack: pack.id },
      success_url: `${origin}/credits?purchase=success`,
      cancel_url: `${origin}/credits?purchase=cancelled`,
    },
    { idempotencyKey: `pack:${user.id}:${pack.id}:${window()}` },
  );
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL.");
  return session.url;
}

export type SubscriptionChange =
  { kind: "none" } | { kind: "changed"; effective: "now" | "period_end"; periodEnd: number };

/**
 * A change of the running subscription: an upgrade now and prorated (invoiced at once, applied only if paid); a
 * downgrade or a cancel at the end of the paid period; asking for the plan in force undoes a pending change.
 */
export async function changeRunningSubscription(
  env: AppEnv,
  db: Db,
  origin: string,
  user: Who,
  target: PlanId,
  billing: Billing,
): Promise<SubscriptionChange> {
  const running = await runningSubscription(db, user.id);
  if (!running) return { kind: "none" };
  const client = stripeFor(env, db);
  const sub = await client.stripe.subscriptions.retrieve(running.id);
  const facts = subscriptionFacts(sub);
  const item = sub.items.data[0];
  if (!facts || !item) return { kind: "none" };
  const { current } = subscriptionPlans(facts);
  const clearDowngrade = { clipcut_paid_plan: "", clipcut_paid_until: "" };
  const key = `change:${sub.id}:${target}:${billing}:${facts.periodStart}:${facts.cancelAtPeriodEnd}:${facts.plan}`;
  let effective: "now" | "period_end";
  if (target === "Free") {
    await client.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }, { idempotencyKey: key });
    effective = "period_end";
  } else if (target === current && billing === facts.billing) {
    await client.stripe.subscriptions.update(
      sub.id,
      {
        cancel_at_period_end: false,
        items: [{ id: item.id, price: await priceId(client, priceLookupKey(target, billing)) }],
        proration_behavior: "none",
        metadata: { clipcut_plan: target, ...clearDowngrade },
      },
      { idempotencyKey: key },
    );
    effective = "now";
  } else if (planRank(target) > planRank(current) || (target === current && billing !== facts.billing)) {
    await client.stripe.subscriptions.update(
      sub.id,
      {
        cancel_at_period_end: false,
        items: [{ id: item.id, price: await priceId(client, priceLookupKey(target, billing)) }],
        proration_behavior: "always_invoice",
        payment_behavior: "pending_if_incomplete",
        metadata: { clipcut_plan: target, clipcut_upgraded_from: current, ...clearDowngrade },
      },
      { idempotencyKey: key },
    );
    effective = "now";
  } else {
    await client.stripe.subscriptions.update(
      sub.id,
      {
        cancel_at_period_end: false,
        items: [{ id: item.id, price: await priceId(client, priceLookupKey(target, billing)) }],
        proration_behavior: "none",
        metadata: { clipcut_plan: target, clipcut_paid_plan: current, clipcut_paid_until: String(facts.periodEnd) },
      },
      { idempotencyKey: key },
    );
    effective = "period_end";
  }
  // Apply what Stripe now holds at once (the webhook does the same; both are idempotent).
  const synced = await syncSubscription({ env, db, client, origin }, sub.id);
  return { kind: "changed", effective, periodEnd: synced?.facts.periodEnd ?? facts.periodEnd };
}

/** The saved card: the customer's default, else the running subscription's. */
export async function paymentMethodOf(env: AppEnv, db: Db, userId: string) {
  const customerId = await customerIdOf(db, userId);
  if (!customerId) return null;
  const client = stripeFor(env, db);
  const customer = await client.stripe.customers.retrieve(customerId, {
    expand: ["invoice_settings.default_payment_method"],
  });
  if (customer.deleted) return null;
  let pm = customer.invoice_settings?.default_payment_method;
  if (!pm || typeof pm === "string") {
    const running = await runningSubscription(db, userId);
    if (running) {
      const sub = await client.stripe.subscriptions.retrieve(running.id, { expand: ["default_payment_method"] });
      pm = sub.default_payment_method;
    }
  }
  if (!pm || typeof pm === "string" || !pm.card) return null;
  return { brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

/** The Customer Portal (payment method, invoices, cancel), opened for the user's customer. */
export async function portalUrl(env: AppEnv, db: Db, origin: string, user: Who): Promise<string> {
  const client = stripeFor(env, db);
  const customer = await ensureCustomer(client, db, user);
  const session = await client.stripe.billingPortal.sessions.create({ customer, return_url: `${origin}/billing` });
  return session.url;
}

export type RefundOutcome = { ok: true } | { ok: false; status: number; message: string };

/**
 * Money-back guarantee: a refund of a whole payment within 14 days of paying, through Stripe. The credits come back
 * with Stripe's charge.refunded event (as far as unspent), like any refund made on Stripe's dashboard.
 */
export async function refundPayment(
  env: AppEnv,
  db: Db,
  origin: string,
  input: { userId: string; paymentId: string; actorId: string; reason: string; now?: number },
): Promise<RefundOutcome> {
  const payment = await paymentById(db, input.paymentId);
  if (!payment || payment.userId !== input.userId) return { ok: false, status: 404, message: "Payment not found." };
  if (!payment.paymentIntentId || !payment.paidAt || payment.status === "failed")
    return { ok: false, status: 422, message: "This payment was not paid, so there is nothing to refund." };
  if (payment.status === "refunded") return { ok: false, status: 409, message: "This payment was already refunded." };
  if ((input.now ?? Date.now()) - payment.paidAt.getTime() > REFUND_WINDOW_MS)
    return { ok: false, status: 422, message: "The 14-day money-back guarantee for this payment has ended." };
  const client = stripeFor(env, db);
  await client.stripe.refunds.create(
    {
      payment_intent: payment.paymentIntentId,
      amount: payment.amountCents - payment.refundedCents,
      reason: "requested_by_customer",
      metadata: { reason: input.reason, actor_id: input.actorId, user_id: input.userId },
    },
    { idempotencyKey: `refund:${payment.id}:${payment.refundedCents}` },
  );
  return { ok: true };
}
