/**
 * POST /webhooks/stripe: the one place where Stripe's word changes anything. The signature is checked on the raw
 * body; each event id is applied once; the event's object is re-read from Stripe before acting (delivery order is
 * not trusted); plan and credits change only as UserLedger operations; the answer is 2xx only after they committed.
 */
import { subscriptionPlans, invoiceGrant, type InvoiceLine, type SubscriptionFacts } from "~/domain/billing";
import { creditPack, effectivePlan, formatCents, planOfLookupKey, type Billing, type PaidPlanId } from "~/domain/plans";
import {
  eventSeen,
  markEvent,
  paymentById,
  paymentByIntent,
  runningSubscription,
  savePayment,
  saveSubscription,
  setRefunded,
  userEmail,
  userIdOfCustomer,
} from "~/db/billing.server";
import { getDb, type Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { billingLedger } from "./billing-ledger.server";
import { actionEmail, sendEmail } from "./email.server";
import { cryptoProvider, idOf, msOf, stripeFor, type BillingStripe, type Stripe } from "./stripe.server";

/** The ledger could not take the change now: answer 503 so that Stripe delivers the event again. */
class RetryLater extends Error {}

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

const HANDLED = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
  "charge.refunded",
]);

export async function handleStripeWebhook(request: Request, env: AppEnv): Promise<Response> {
  const db = getDb(env.DB);
  const client = stripeFor(env, db);
  const signature = request.headers.get("stripe-signature");
  const raw = await request.text();
  if (!signature) return json({ error: "Missing Stripe-Signature header." }, 400);
  let event: Stripe.Event;
  try {
    event = await client.stripe.webhooks.constructEventAsync(
      raw,
      signature,
      client.webhookSecret,
      undefined,
      cryptoProvider,
    );
  } catch {
    return json({ error: "The Stripe signature does not match this payload." }, 400);
  }
  if (!HANDLED.has(event.type)) return json({ received: true, ignored: event.type });
  if (await eventSeen(db, event.id)) return json({ received: true, duplicate: true });
  try {
    await applyEvent({ env, db, client, origin: new URL(request.url).origin }, event);
  } catch (error) {
    if (error instanceof RetryLater) return json({ error: error.message }, 503);
    console.error(
      JSON.stringify({ level: "error", msg: "stripe webhook failed", type: event.type, error: String(error) }),
    );
    return json({ error: "The event could not be applied; Stripe will deliver it again." }, 500);
  }
  await markEvent(db, event.id, event.type);
  return json({ received: true });
}

interface Ctx {
  env: AppEnv;
  db: Db;
  client: BillingStripe;
  /** Our site's origin (the webhook is posted to it), for links in e-mails. */
  origin: string;
}

async function applyEvent(ctx: Ctx, event: Stripe.Event): Promise<void> {
  const object = event.data.object as { id: string };
  switch (event.type) {
    case "checkout.session.completed":
      return checkoutCompleted(ctx, object.id);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      await syncSubscription(ctx, object.id);
      return;
    case "invoice.paid":
      return invoicePaid(ctx, object.id);
    case "invoice.payment_failed":
      return invoiceFailed(ctx, object.id);
    case "charge.refunded":
      return chargeRefunded(ctx, object.id);
  }
}

function must<T>(result: { ok: true; value: T } | { ok: false; status: number; message: string }): T {
  if (result.ok) return result.value;
  if (result.status === 404) throw new Error(`ledger: ${result.message}`);
  throw new RetryLater(result.message);
}

async function userOf(ctx: Ctx, customer: string | { id: string } | null, metadata?: Stripe.Metadata | null) {
  const customerId = idOf(customer);
  const userId = (customerId ? await userIdOfCustomer(ctx.db, customerId) : null) ?? metadata?.user_id ?? null;
  if (!userId) throw new Error(`no user for Stripe customer ${customerId ?? "(none)"}`);
  return userId;
}

const paidPlanOf = (value: string | null | undefined): PaidPlanId | null => {
  const plan = effectivePlan(value);
  return plan === "Free" ? null : plan;
};

/** The subscription's facts for the ledger; null when its price is not one we sell. */
export function subscriptionFacts(sub: Stripe.Subscription): SubscriptionFacts | null {
  const item = sub.items.data[0];
  const priced = planOfLookupKey(item?.price.lookup_key);
  if (!item || !priced) return null;
  const paidUntil = Number(sub.metadata?.clipcut_paid_until);
  return {
    status: sub.status,
    plan: priced.plan,
    billing: priced.billing,
    periodStart: msOf(item.current_period_start),
    periodEnd: msOf(item.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    paidPlan: paidPlanOf(sub.metadata?.clipcut_paid_plan),
    paidUntil: Number.isFinite(paidUntil) && paidUntil > 0 ? paidUntil : null,
  };
}

const RUNNING = ["active", "trialing", "past_due"];

/** Re-reads a subscription and brings the user's plan in line with it (one ledger operation). */
export async function syncSubscription(ctx: Ctx, subscriptionId: string) {
  let sub = await ctx.client.stripe.subscriptions.retrieve(subscriptionId);
  const facts = subscriptionFacts(sub);
  if (!facts) return null;
  const userId = await userOf(ctx, sub.customer, sub.metadata);
  const running = await runningSubscription(ctx.db, userId);
  // A second subscription while one is running (two checkout tabs): it is cancelled and refunded, never applied.
  if (running !== null && running.id !== sub.id && RUNNING.includes(sub.status))
    sub = await cancelDuplicate(ctx, sub, userId, running.id);
  const duplicate = Boolean(sub.metadata?.clipcut_duplicate_of);
  // An old subscription that ended must not take the plan of a newer one away.
  const superseded = running !== null && running.id !== sub.id && !RUNNING.includes(sub.status);
  if (!superseded && !duplicate) must(await billingLedger(ctx.env, userId).applySubscription(facts));
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

async function checkoutCompleted(ctx: Ctx, sessionId: string): Promise<void> {
  const session = await ctx.client.stripe.checkout.sessions.retrieve(sessionId);
  if (session.status !== "complete") return;
  if (session.mode === "subscription") {
    const subscriptionId = idOf(session.subscription);
    if (subscriptionId) await syncSubscription(ctx, subscriptionId);
    return;
  }
  if (session.mode !== "payment" || session.payment_status !== "paid") return;
  const pack = creditPack(session.metadata?.pack);
  const paymentIntentId = idOf(session.payment_intent);
  if (!pack || !paymentIntentId) return;
  const userId = await userOf(ctx, session.customer, session.metadata);
  must(await billingLedger(ctx.env, userId).grantPack({ paymentIntentId, credits: pack.credits, name: pack.name }));
  const at = new Date(msOf(session.created));
  await savePayment(ctx.db, {
    id: paymentIntentId,
    userId,
    kind: "pack",
    description: `Credit pack: ${pack.name}`,
    status: "paid",
    amountCents: session.amount_total ?? pack.priceCents,
    currency: session.currency ?? "usd",
    credits: pack.credits,
    paymentIntentId,
    createdAt: at,
    paidAt: new Date(),
  });
}

const invoiceSubscription = (invoice: Stripe.Invoice) => invoice.parent?.subscription_details ?? null;
const invoicePaymentIntent = (invoice: Stripe.Invoice) =>
  idOf(invoice.payments?.data.find((p) => p.status === "paid")?.payment.payment_intent ?? null);

const linePlans = new Map<string, { plan: PaidPlanId; billing: Billing } | null>();

/** The plan a price stands for, by its lookup key (a price id alone says nothing); remembered per isolate. */
async function planOfPrice(ctx: Ctx, price: string | Stripe.Price | null | undefined) {
  if (!price) return null;
  if (typeof price !== "string") return planOfLookupKey(price.lookup_key);
  if (!linePlans.has(price))
    linePlans.set(price, planOfLookupKey((await ctx.client.stripe.prices.retrieve(price)).lookup_key));
  return linePlans.get(price) ?? null;
}

/** The invoice's lines as the grant rule reads them: amounts, proration flags, prices and periods. */
async function invoiceLines(ctx: Ctx, invoice: Stripe.Invoice): Promise<InvoiceLine[]> {
  const items: Stripe.InvoiceLineItem[] = invoice.lines.has_more
    ? await ctx.client.stripe.invoices.listLineItems(invoice.id, { limit: 100 }).autoPagingToArray({ limit: 1000 })
    : invoice.lines.data;
  return Promise.all(
    items.map(async (line) => {
      const parent = line.parent;
      const priced = await planOfPrice(ctx, line.pricing?.price_details?.price);
      return {
        amount: line.amount,
        proration: parent?.subscription_item_details?.proration ?? parent?.invoice_item_details?.proration ?? false,
        plan: priced?.plan ?? null,
        billing: priced?.billing ?? null,
        start: msOf(line.period.start),
        end: msOf(line.period.end),
      };
    }),
  );
}

async function invoicePaid(ctx: Ctx, invoiceId: string): Promise<void> {
  const invoice = await ctx.client.stripe.invoices.retrieve(invoiceId, { expand: ["payments"] });
  if (invoice.status !== "paid") return;
  const details = invoiceSubscription(invoice);
  const subscriptionId = idOf(details?.subscription ?? null);
  if (!subscriptionId) return;
  const synced = await syncSubscription(ctx, subscriptionId);
  if (!synced) return;
  // A duplicate subscription's invoice is refunded in full: recorded (the refund needs it), never granted.
  const input = {
    invoiceId: invoice.id,
    billingReason: invoice.billing_reason,
    lines: await invoiceLines(ctx, invoice),
  };
  if (!synced.duplicate) must(await billingLedger(ctx.env, synced.userId).grantPurchase(input));
  const plan = subscriptionPlans(synced.facts).current;
  await savePayment(ctx.db, {
    id: invoice.id,
    userId: synced.userId,
    kind: "invoice",
    number: invoice.number,
    description: `${plan} plan, ${synced.facts.billing}`,
    status: "paid",
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    credits: synced.duplicate ? 0 : (invoiceGrant(input)?.delta ?? 0),
    paymentIntentId: invoicePaymentIntent(invoice),
    invoiceUrl: invoice.invoice_pdf ?? invoice.hosted_invoice_url ?? null,
    createdAt: new Date(msOf(invoice.created)),
    paidAt: new Date(msOf(invoice.status_transitions.paid_at ?? invoice.created)),
  });
}

async function invoiceFailed(ctx: Ctx, invoiceId: string): Promise<void> {
  const invoice = await ctx.client.stripe.invoices.retrieve(invoiceId);
  // Paid meanwhile (a retry succeeded): nothing to tell.
  if (invoice.status === "paid" || invoice.status === "void") return;
  const userId = await userOf(ctx, invoice.customer, invoiceSubscription(invoice)?.metadata);
  const before = await paymentById(ctx.db, invoice.id);
  await savePayment(ctx.db, {
    id: invoice.id,
    userId,
    kind: "invoice",
    number: invoice.number,
    description: "Subscription renewal",
    status: "failed",
    amountCents: invoice.amount_due,
    currency: invoice.currency,
    invoiceUrl: invoice.hosted_invoice_url ?? null,
    createdAt: new Date(msOf(invoice.created)),
  });
  if (before) return; // told once per invoice
  const user = await userEmail(ctx.db, userId);
  if (!user) return;
  await sendEmail(
    { env: ctx.env, db: ctx.db },
    actionEmail({
      to: user.email,
      subject: "Your ClipCut payment failed",
      intro: `We could not take the payment for your ClipCut subscription (invoice ${invoice.number ?? invoice.id}). Your plan stays as it is while Stripe tries again.`,
      action: "Update your payment method",
      url: `${ctx.origin}/billing`,
      outro: "If the payment keeps failing, the subscription ends and your plan becomes Free.",
    }),
  );
}

async function chargeRefunded(ctx: Ctx, chargeId: string): Promise<void> {
  const charge = await ctx.client.stripe.charges.retrieve(chargeId);
  const paymentIntentId = idOf(charge.payment_intent);
  const payment = paymentIntentId ? await paymentByIntent(ctx.db, paymentIntentId) : null;
  // Refund of a payment we have not recorded yet (its own event is still on the way): try again later.
  if (!payment) throw new RetryLater("The refunded payment is not recorded yet.");
  const refunds = await ctx.client.stripe.refunds.list({ charge: charge.id, limit: 100 });
  const ledger = billingLedger(ctx.env, payment.userId);
  for (const refund of refunds.data) {
    if (refund.status !== "succeeded") continue;
    must(
      await ledger.takeBackRefund({
        refundId: refund.id,
        refundCents: refund.amount,
        paymentCents: payment.amountCents,
        grantedCredits: payment.credits,
        reason: refund.metadata?.reason ?? refund.reason ?? "refund",
        actorId: refund.metadata?.actor_id ?? null,
      }),
    );
  }
  await setRefunded(ctx.db, payment.id, charge.amount_refunded, payment.amountCents);
}
