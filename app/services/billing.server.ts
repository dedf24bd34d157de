/**
 * What a creator (or an admin) asks of Stripe: Checkout for a plan or a pack, a change of a running subscription,
 * the Customer Portal, a refund. None of this changes plan or credits itself: Stripe's events do, through the
 * webhook and the ledger.
 */
import { moneyBack, newPaidLine, planChangeIntent, type PaidLine, type PendingUpgrade } from "~/domain/billing";
import {
  creditPack,
  effectivePlan,
  planOfLookupKey,
  priceLookupKey,
  REFUND_WINDOW_MS,
  type Billing,
  type PaidPlanId,
  type PlanId,
} from "~/domain/plans";
import { customerIdOf, linesOfPayment, paymentById, runningSubscription, saveCustomer } from "~/db/billing.server";
import type { Db } from "~/db/client.server";
import { readCredits } from "~/db/credits.server";
import type { AppEnv } from "~/load-context";
import { ledger } from "./ledger.server";
import { idOf, msOf, stripeFor, type BillingStripe, type Stripe } from "./stripe.server";
import {
  activeSchedule,
  retrieveSubscription,
  subscriptionFacts,
  syncSubscription,
} from "./stripe-subscriptions.server";

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

/**
 * Stripe Tax computes the tax from the address Checkout collects, and the address is saved on the customer so that
 * renewals are taxed the same way (Stripe refuses automatic tax for a customer without one unless told to save it).
 */
const TAXED = {
  automatic_tax: { enabled: true },
  billing_address_collection: "required",
  customer_update: { address: "auto", name: "auto" },
} satisfies Partial<Stripe.Checkout.SessionCreateParams>;

/** Requests that repeat within this window reuse the same Checkout Session (a double click, a retry). */
const CHECKOUT_KEY_WINDOW_MS = 10 * 60 * 1000;
const window = () => Math.floor(Date.now() / CHECKOUT_KEY_WINDOW_MS);

/**
 * One open plan checkout per user: an open session for the same price is reused; any other open subscription
 * checkout is expired before a new one starts, so two tabs cannot both subscribe. (If both still complete — a
 * race between the two — the webhook cancels and refunds the second subscription.)
 */
async function planCheckoutUrl(
  client: BillingStripe,
  db: Db,
  origin: string,
  user: Who,
  plan: PaidPlanId,
  billing: Billing,
) {
  const customer = await ensureCustomer(client, db, user);
  const lookupKey = priceLookupKey(plan, billing);
  const open = await client.stripe.checkout.sessions.list({ customer, status: "open", limit: 100 });
  const expired: string[] = [];
  for (const session of open.data) {
    if (session.mode !== "subscription") continue;
    if (session.metadata?.plan === plan && session.metadata?.billing === billing && session.url) return session.url;
    try {
      await client.stripe.checkout.sessions.expire(session.id);
      expired.push(session.id);
    } catch {
      // Completed meanwhile: the webhook's duplicate-subscription rule takes it from here.
    }
  }
  const session = await client.stripe.checkout.sessions.create(
    {
      mode: "subscription",
      customer,
      client_reference_id: user.id,
      line_items: [{ price: await priceId(client, lookupKey), quantity: 1 }],
      subscription_data: { metadata: { user_id: user.id } },
      ...TAXED,
      metadata: { user_id: user.id, plan, billing },
      success_url: `${origin}/billing/plan?checkout=success&plan=${plan}`,
      cancel_url: `${origin}/billing/plan?checkout=cancelled`,
    },
    // The sessions just expired are part of the key: a key never replays a session this request expired.
    { idempotencyKey: `checkout:${user.id}:${lookupKey}:${window()}:${expired.join(",")}` },
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
      ...TAXED,
      metadata: { user_id: user.id, pack: pack.id },
      success_url: `${origin}/credits?purchase=success`,
      cancel_url: `${origin}/credits?purchase=cancelled`,
    },
    { idempotencyKey: `pack:${user.id}:${pack.id}:${window()}` },
  );
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL.");
  return session.url;
}

export type PlanChangeOutcome =
  | { kind: "checkout"; url: string }
  | { kind: "changed"; plan: PlanId; effective: "now" | "period_end" }
  | { kind: "unchanged"; plan: PlanId }
  /** Stripe holds the upgrade until its invoice is paid: nothing changed yet. */
  | { kind: "pending"; pending: PendingUpgrade }
  | { kind: "refused"; status: number; message: string };

interface PlanUser extends Who {
  plan: string;
  pendingPlan: PlanId | null;
}

/**
 * A creator's change of plan: the rule (planChangeIntent) decides, this carries it out — Checkout, a change of the
 * running subscription in Stripe, or the ledger alone for a plan given without one. Plan and credits then follow
 * Stripe's events (applied here at once as well; both paths are idempotent).
 */
export async function changePlan(
  env: AppEnv,
  db: Db,
  origin: string,
  user: PlanUser,
  target: PlanId,
  interval: Billing,
): Promise<PlanChangeOutcome> {
  const client = stripeFor(env, db);
  const running = await runningSubscription(db, user.id);
  const sub = running ? await retrieveSubscription(client, running.id) : null;
  const facts = sub ? subscriptionFacts(sub) : null;
  const intent = planChangeIntent({
    current: effectivePlan(user.plan),
    pending: user.pendingPlan,
    subscription: facts,
    target,
    interval,
    now: Date.now(),
  });
  switch (intent.kind) {
    case "none":
      return { kind: "unchanged", plan: target };
    case "checkout":
      return { kind: "checkout", url: await planCheckoutUrl(client, db, origin, user, intent.plan, intent.interval) };
    case "ledgerOnly": {
      const result = await ledger(env, user.id).changePlan({ plan: intent.plan });
      if (!result.ok) return { kind: "refused", status: result.status, message: result.message };
      return { kind: "changed", plan: target, effective: result.value.effective };
    }
  }
  const item = sub?.items.data[0];
  if (!sub || !facts || !item) return { kind: "unchanged", plan: target };
  const ctx = { env, db, client, origin };
  const schedule = activeSchedule(sub);
  if (intent.kind === "downgradeAtPeriodEnd" && intent.schedule) {
    const price = await priceId(client, priceLookupKey(intent.plan, intent.interval));
    await scheduleChange(client, sub, schedule, price, intent.interval);
    await syncSubscription(ctx, sub.id);
    return { kind: "changed", plan: target, effective: "period_end" };
  }
  // Stripe does not let the ending or the price of a subscription a schedule manages be changed directly: the
  // schedule is released first, which drops the change it was holding.
  if (schedule)
    await client.stripe.subscriptionSchedules.release(schedule.id, {}, { idempotencyKey: `release:${schedule.id}` });
  const key = `change:${sub.id}:${intent.kind}:${target}:${interval}:${facts.periodStart}:${facts.cancelAtPeriodEnd}:${facts.plan}`;
  const clearDowngrade = { clipcut_paid_plan: "", clipcut_paid_until: "" };
  const price = async (plan: PaidPlanId, billing: Billing) => [
    { id: item.id, price: await priceId(client, priceLookupKey(plan, billing)) },
  ];
  let params: Stripe.SubscriptionUpdateParams;
  switch (intent.kind) {
    case "cancelAtPeriodEnd":
      params = { cancel_at_period_end: true };
      break;
    case "undoPending":
      params = {
        cancel_at_period_end: false,
        items: await price(intent.plan, intent.interval),
        proration_behavior: "none",
        metadata: clearDowngrade,
      };
      break;
    case "upgradeNow":
    case "switchInterval":
      // Invoiced at once and applied only if paid; the credits follow what that invoice charged.
      params = {
        cancel_at_period_end: false,
        items: await price(intent.plan, intent.interval),
        proration_behavior: "always_invoice",
        payment_behavior: "pending_if_incomplete",
        metadata: clearDowngrade,
      };
      break;
    case "downgradeAtPeriodEnd":
      params = {
        cancel_at_period_end: false,
        items: await price(intent.plan, intent.interval),
        proration_behavior: "none",
        metadata: { clipcut_paid_plan: intent.paidPlan, clipcut_paid_until: String(intent.paidUntil) },
      };
      break;
  }
  const updated = await client.stripe.subscriptions.update(sub.id, params, { idempotencyKey: key });
  // Apply what Stripe now holds at once (the webhook does the same; both are idempotent).
  await syncSubscription(ctx, sub.id);
  const pending = await pendingUpgradeOf(client, updated);
  if (pending) return { kind: "pending", pending };
  const later = intent.kind === "cancelAtPeriodEnd" || intent.kind === "downgradeAtPeriodEnd";
  return { kind: "changed", plan: target, effective: later ? "period_end" : "now" };
}

/**
 * A change to another interval at the period end, held by a subscription schedule: the current period stays as it
 * is (its price, to its end), then the new price starts its own billing cycle; the schedule then lets go of the
 * subscription. A changing price would start the new interval's cycle at once, so the price is not changed now.
 */
async function scheduleChange(
  client: BillingStripe,
  sub: Stripe.Subscription,
  schedule: Stripe.SubscriptionSchedule | null,
  price: string,
  billing: Billing,
) {
  const item = sub.items.data[0]!;
  const managed =
    schedule ??
    // No idempotency key: Stripe makes at most one schedule per subscription (a repeat is refused), and a key
    // would replay a schedule released since.
    (await client.stripe.subscriptionSchedules.create({ from_subscription: sub.id }));
  // Setting the phases is idempotent by itself (they are replaced whole): no key needed either.
  await client.stripe.subscriptionSchedules.update(managed.id, {
    phases: [
      {
        items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
        start_date: managed.current_phase?.start_date ?? item.current_period_start,
        end_date: item.current_period_end,
        proration_behavior: "none",
      },
      {
        items: [{ price, quantity: 1 }],
        start_date: item.current_period_end,
        duration: { interval: billing === "yearly" ? "year" : "month", interval_count: 1 },
        proration_behavior: "none",
      },
    ],
    end_behavior: "release",
  });
}

/**
 * The upgrade a subscription holds as a pending update, if any: why its invoice is unpaid (the payment intent asks
 * for authentication, or the card was declined) and where the customer finishes it.
 */
async function pendingUpgradeOf(client: BillingStripe, sub: Stripe.Subscription): Promise<PendingUpgrade | null> {
  const update = sub.pending_update;
  const priced = planOfLookupKey(update?.subscription_items?.[0]?.price.lookup_key);
  const invoiceId = idOf(sub.latest_invoice);
  if (!update || !priced || !invoiceId) return null;
  const invoice = await client.stripe.invoices.retrieve(invoiceId, { expand: ["payments"] });
  const intentId = idOf(invoice.payments?.data[0]?.payment.payment_intent ?? null);
  const intent = intentId ? await client.stripe.paymentIntents.retrieve(intentId) : null;
  return {
    plan: priced.plan,
    reason: intent?.status === "requires_action" ? "authentication" : "declined",
    amountCents: invoice.amount_remaining,
    invoiceUrl: invoice.hosted_invoice_url ?? null,
    expiresAt: msOf(update.expires_at),
  };
}

/** The user's pending upgrade for the plan page; null when none (or when Stripe cannot be asked now). */
export async function pendingUpgrade(env: AppEnv, db: Db, userId: string): Promise<PendingUpgrade | null> {
  const running = await runningSubscription(db, userId);
  if (!running) return null;
  try {
    const client = stripeFor(env, db);
    return await pendingUpgradeOf(client, await client.stripe.subscriptions.retrieve(running.id));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "pending upgrade unreadable", error: String(error) }));
    return null;
  }
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
  const configuration = await portalConfiguration(client, origin);
  const session = await client.stripe.billingPortal.sessions.create({
    customer,
    configuration,
    return_url: `${origin}/billing`,
  });
  return session.url;
}

let portalConfigId: string | null = null;

/**
 * The Customer Portal as our code configures it (not the Dashboard's default): card and invoices, cancel at the
 * period end, and no plan switching — a plan change goes through /billing/plan, where one rule decides it. Created
 * once (found again by its metadata) and remembered per isolate.
 */
async function portalConfiguration(client: BillingStripe, origin: string): Promise<string> {
  if (portalConfigId) return portalConfigId;
  const existing = await client.stripe.billingPortal.configurations.list({ active: true, limit: 100 });
  const ours = existing.data.find((c) => c.metadata?.clipcut === PORTAL_CONFIG_VERSION);
  const config =
    ours ??
    (await client.stripe.billingPortal.configurations.create(
      {
        business_profile: { privacy_policy_url: `${origin}/privacy`, terms_of_service_url: `${origin}/terms` },
        features: {
          customer_update: { enabled: true, allowed_updates: ["address", "name", "email", "tax_id"] },
          invoice_history: { enabled: true },
          payment_method_update: { enabled: true },
          subscription_cancel: { enabled: true, mode: "at_period_end", proration_behavior: "none" },
          subscription_update: { enabled: false },
        },
        metadata: { clipcut: PORTAL_CONFIG_VERSION },
      },
      { idempotencyKey: `portal-configuration:${PORTAL_CONFIG_VERSION}` },
    ));
  portalConfigId = config.id;
  return config.id;
}
/** Bumped when the configuration above changes: a new one is created, the old one stays for old sessions. */
const PORTAL_CONFIG_VERSION = "1";

export type RefundOutcome =
  | { ok: true; cents: number; unspentCredits: number; spentCredits: number }
  | { ok: false; status: number; message: string };

/**
 * Money-back guarantee within 14 days of paying, through Stripe, priced over everything the payment paid for
 * (`moneyBack`): the money of every credit not yet spent comes back — a yearly plan's months not yet granted too —
 * and the money of the spent ones stays. A subscription's money-back ends it at once (no month after it is granted
 * or charged). The credits go with Stripe's refund events, like any refund made on Stripe's dashboard.
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
  const credits = await readCredits(db, input.userId);
  const lines = await linesOfPayment(db, input.userId, payment.id);
  const share = moneyBack(lines.length > 0 ? lines : [legacyLine(payment)], credits?.available ?? 0);
  if (share.cents <= 0)
    return {
      ok: false,
      status: 422,
      message: `All ${share.spentCredits.toLocaleString("en-US")} credits of this payment were spent, so no unspent value is left to refund.`,
    };
  const client = stripeFor(env, db);
  await client.stripe.refunds.create(
    {
      payment_intent: payment.paymentIntentId,
      amount: share.cents,
      reason: "requested_by_customer",
      metadata: { reason: input.reason, actor_id: input.actorId, user_id: input.userId, money_back: "1" },
    },
    { idempotencyKey: `refund:${payment.id}:${payment.refundedCents}` },
  );
  // The guarantee returns the subscription's money: nothing more is granted or charged for it.
  const subscriptionId = lines.find((l) => l.subscriptionId)?.subscriptionId;
  if (subscriptionId) {
    await client.stripe.subscriptions.cancel(
      subscriptionId,
      { prorate: false, invoice_now: false, cancellation_details: { comment: "money-back guarantee" } },
      { idempotencyKey: `refund-cancel:${subscriptionId}` },
    );
    await syncSubscription({ env, db, client, origin }, subscriptionId);
  }
  return { ok: true, ...share };
}

/** A payment recorded before paid lines existed: its credits as one grant, all of them in the balance once. */
function legacyLine(payment: { id: string; amountCents: number; refundedCents: number; credits: number }): PaidLine {
  const line = newPaidLine({
    id: payment.id,
    paymentId: payment.id,
    subscriptionId: null,
    chargedCents: payment.amountCents,
    start: 0,
    end: 0,
    item: { pack: "payment", credits: payment.credits },
  });
  return { ...line, granted: payment.credits, returned: payment.refundedCents ? { old: payment.refundedCents } : {} };
}
