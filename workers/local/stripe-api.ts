/**
 * Local only: the Stripe API as far as ClipCut calls it, answered at the SDK's fetch boundary with Stripe's shapes
 * (API version 2026-10-28.endive), over the stand-in's own storage (stand-in-object.ts). It records the events Stripe
 * would send; the local entry signs them and posts them to /webhooks/stripe. Card data is never stored.
 */
import {
  creditPack,
  CREDIT_PACKS,
  PAID_PLAN_IDS,
  planOfLookupKey,
  planPeriodPriceCents,
  priceLookupKey,
  type Billing,
} from "../../app/domain/plans";
import type Stripe from "stripe";
import { invoiceLine, openInvoice } from "./stripe-objects";

export type Obj = Record<string, unknown> & { id: string; object: string };
export type Params = Record<string, unknown>;

/** What the stand-in object offers the API: its clock (seconds; tests move it) and its objects and events. */
export interface StandInStore {
  now(): number;
  get<T extends Obj = Obj>(id: string): T | null;
  put<T extends Obj>(obj: T): T;
  ofType<T extends Obj = Obj>(type: string): T[];
  recordEvent(type: string, object: Obj): void;
}

export const API_VERSION = "2026-10-28.endive";
/** In every stand-in answer and page; `npm run deploy:check` fails when the production bundle contains it. */
export const STAND_IN_MARKER = "clipcut-local-stand-in";
/** Stripe keeps a pending update this long before it expires (docs.stripe.com/billing/subscriptions/pending-updates). */
export const PENDING_UPDATE_SECONDS = 23 * 3600;

export const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
export function parseStripeForm(body: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/[[\]]+/).filter(Boolean);
    let node: Record<string, unknown> = out;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== "object") return v;
    const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, arrays(x)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.map(([, x]) => x)
      : Object.fromEntries(entries);
  };
  return arrays(out) as Params;
}

// ── Prices: built from app/domain/plans.ts, as a deploy creates them (docs/payments.md) ────────

function priceObject(lookupKey: string): Obj | null {
  const plan = planOfLookupKey(lookupKey);
  const pack = plan ? null : creditPack(lookupKey);
  if (!plan && !pack) return null;
  return {
    id: `price_${lookupKey}`,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: 1_790_000_000,
    currency: "usd",
    custom_unit_amount: null,
    livemode: false,
    lookup_key: lookupKey,
    metadata: {},
    nickname: null,
    product: plan ? `prod_${plan.plan.toLowerCase()}` : `prod_${lookupKey}`,
    recurring: plan
      ? {
          interval: plan.billing === "yearly" ? "year" : "month",
          interval_count: 1,
          meter: null,
          usage_type: "licensed",
        }
      : null,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: plan ? "recurring" : "one_time",
    unit_amount: plan ? planPeriodPriceCents(plan.plan, plan.billing) : (pack?.priceCents ?? 0),
    unit_amount_decimal: null,
  };
}

const ALL_LOOKUP_KEYS = [
  ...PAID_PLAN_IDS.flatMap((p) => (["monthly", "yearly"] as Billing[]).map((b) => priceLookupKey(p, b))),
  ...CREDIT_PACKS.map((p) => p.id),
];
const priceById = (id: string) => priceObject(id.replace(/^price_/, ""));

// ── Errors in Stripe's shape ───────────────────────────────────────────────

export function stripeError(status: number, message: string, extra: Record<string, unknown> = {}): Response {
  const type =
    status === 402 ? "card_error" : extra.type === "idempotency_error" ? "idempotency_error" : "invalid_request_error";
  return Response.json({ error: { type, message, ...extra } }, { status });
}

const list = (url: string, data: unknown[]) => ({ object: "list", url, has_more: false, data });

/** Calendar month / year after `start` (seconds), as Stripe bills. */
function periodEnd(start: number, billing: Billing): number {
  const d = new Date(start * 1000);
  if (billing === "yearly") d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

const billingOfPrice = (price: Obj): Billing =>
  (price.recurring as { interval: string } | null)?.interval === "year" ? "yearly" : "monthly";

// ── Test cards (docs.stripe.com/testing) ────────────────────────────────────

export type CardBehaviour = "succeeds" | "declines" | "declines_after_attach" | "authenticates";

/**
 * 4242… pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 0341 can be saved but every later charge is declined;
 * 4000 0027 6000 3184 asks for 3-D Secure on every payment (the customer is present at checkout, so it passes there;
 * an off-session charge such as an upgrade needs the customer to authenticate on the invoice page).
 */
export function testCard(number: string): { behaviour: CardBehaviour; last4: string } | { error: string } {
  const digits = number.replace(/[\s-]/g, "");
  const known: Record<string, CardBehaviour> = {
    "4242424242424242": "succeeds",
    "4000000000000002": "declines",
    "4000000000000341": "declines_after_attach",
    "4000002760003184": "authenticates",
  };
  const behaviour = known[digits];
  if (!behaviour) return { error: "Your card number is invalid. Use a Stripe test card such as 4242 4242 4242 4242." };
  return { behaviour, last4: digits.slice(-4) };
}

type Attempt =
  | { status: "succeeded"; paymentIntent: string }
  | { status: "requires_payment_method" | "requires_action"; paymentIntent: string; message: string };

/** One payment of `amount` with a card: a PaymentIntent (and a charge when it reached the card network). */
function pay(
  store: StandInStore,
  customer: string,
  amount: number,
  description: string,
  card: CardBehaviour | null,
  onSession: boolean,
): Attempt {
  const piId = newId("pi");
  const t = store.now();
  const outcome: Attempt["status"] =
    card === "succeeds" || (card === "authenticates" && onSession)
      ? "succeeded"
      : card === "authenticates"
        ? "requires_action"
        : "requires_payment_method";
  const declined = outcome === "requires_payment_method";
  const charge: Obj | null =
    outcome === "requires_action"
      ? null
      : store.put({
          id: newId("ch"),
          object: "charge",
          amount,
          amount_captured: declined ? 0 : amount,
          amount_refunded: 0,
          captured: !declined,
          created: t,
          currency: "usd",
          customer,
          description,
          failure_code: declined ? "card_declined" : null,
          failure_message: declined ? "Your card was declined." : null,
          livemode: false,
          metadata: {},
          paid: !declined,
          payment_intent: piId,
          refunded: false,
          status: declined ? "failed" : "succeeded",
        });
  const message = declined
    ? "Your card was declined."
    : "This payment needs the customer to authenticate (3-D Secure).";
  store.put({
    id: piId,
    object: "payment_intent",
    amount,
    amount_received: outcome === "succeeded" ? amount : 0,
    created: t,
    currency: "usd",
    customer,
    description,
    last_payment_error: declined ? { type: "card_error", code: "card_declined", message } : null,
    latest_charge: charge?.id ?? null,
    livemode: false,
    metadata: {},
    next_action: outcome === "requires_action" ? { type: "use_stripe_sdk" } : null,
    status: outcome,
  });
  return outcome === "succeeded"
    ? { status: outcome, paymentIntent: piId }
    : { status: outcome, paymentIntent: piId, message };
}

function defaultCard(store: StandInStore, customerId: string): CardBehaviour | null {
  const customer = store.get(customerId);
  const pmId = (customer?.invoice_settings as { default_payment_method: string | null } | undefined)
    ?.default_payment_method;
  const pm = pmId ? store.get(pmId) : null;
  return ((pm?.metadata as { behaviour?: CardBehaviour } | undefined)?.behaviour ?? null) as CardBehaviour | null;
}

// ── Invoices ─────────────────────────────────────────────────────────────

interface Line {
  amount: number;
  description: string;
  price: string;
  period: { start: number; end: number };
  /** A proration line (credit for unused time, or the remaining time on the new price). */
  proration: boolean;
  subscriptionItem: string;
}

/** A finalized invoice for a subscription. Its metadata is the subscription's as it is now, before any payment. */
function newInvoice(store: StandInStore, sub: Obj, billingReason: Stripe.Invoice.BillingReason, lines: Line[]): Obj {
  const id = newId("in");
  const invoice = openInvoice({
    id,
    number: `LOCAL-${String(store.ofType("invoice").length + 1).padStart(4, "0")}`,
    customer: String(sub.customer),
    created: store.now(),
    billingReason,
    subscription: sub.id,
    subscriptionMetadata: { ...(sub.metadata as Record<string, string>) },
    lines: lines.map((line) =>
      invoiceLine({
        ...line,
        id: newId("il"),
        invoice: id,
        subscription: sub.id,
        product: String(priceById(line.price)?.product ?? ""),
        invoiceItem: line.proration ? newId("ii") : null,
      }),
    ),
  });
  // Stripe lists the invoice's payments when asked (expand); the stand-in keeps them on the invoice.
  store.put({ ...invoice, payments: list(`/v1/invoices/${id}/payments`, []) });
  return store.get(id)!;
}

/** Tries to pay an open invoice; records the invoice payment either way. */
function collect(store: StandInStore, invoice: Obj, onSession: boolean, card?: CardBehaviour | null): Attempt {
  const customer = String(invoice.customer);
  const attempt =
    Number(invoice.amount_due) === 0
      ? ({ status: "succeeded", paymentIntent: "" } as Attempt)
      : pay(
          store,
          customer,
          Number(invoice.amount_due),
          `Invoice ${String(invoice.number)}`,
          card === undefined ? defaultCard(store, customer) : card,
          onSession,
        );
  const t = store.now();
  const paid = attempt.status === "succeeded";
  const payments = (invoice.payments as { data: unknown[] }).data;
  const payment = attempt.paymentIntent
    ? [
        {
          id: newId("inpay"),
          object: "invoice_payment",
          amount_paid: paid ? Number(invoice.amount_due) : null,
          amount_requested: Number(invoice.amount_due),
          created: t,
          currency: "usd",
          invoice: invoice.id,
          is_default: true,
          livemode: false,
          payment: { type: "payment_intent", payment_intent: attempt.paymentIntent },
          status: paid ? "paid" : "open",
          status_transitions: { canceled_at: null, paid_at: paid ? t : null },
        },
      ]
    : [];
  store.put({
    ...invoice,
    amount_paid: paid ? Number(invoice.amount_due) : 0,
    amount_remaining: paid ? 0 : Number(invoice.amount_due),
    attempt_count: Number(invoice.attempt_count) + 1,
    attempted: true,
    hosted_invoice_url: paid ? null : `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/invoice/${invoice.id}`,
    payments: { ...(invoice.payments as object), data: [...payment, ...payments] },
    status: paid ? "paid" : "open",
    status_transitions: { ...(invoice.status_transitions as object), paid_at: paid ? t : null },
  });
  return attempt;
}

/** Hosted pages live on the site's own origin; the local entry fills it in when it answers. */
export const LOCAL_ORIGIN_PLACEHOLDER = "{{origin}}";

function subscriptionItem(sub: Obj) {
  return (sub.items as { data: (Obj & { price: Obj; current_period_start: number; current_period_end: number })[] })
    .data[0]!;
}

// ── What a customer does on Stripe's pages (not API calls) ────────────────

export type PageOutcome = { ok: true } | { ok: false; message: string };

function savePaymentMethod(store: StandInStore, customerId: string, card: { behaviour: CardBehaviour; last4: string }) {
  const pm = store.put({
    id: newId("pm"),
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: { brand: "visa", last4: card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 },
    created: store.now(),
    customer: customerId,
    livemode: false,
    // Not Stripe's: how this test card behaves on later charges (Stripe knows it from the card number).
    metadata: { behaviour: card.behaviour },
    type: "card",
  });
  const customer = store.get(customerId);
  if (customer)
    store.put({
      ...customer,
      invoice_settings: { ...(customer.invoice_settings as object), default_payment_method: pm.id },
    });
  return pm.id;
}

export function checkoutSession(store: StandInStore, id: string): Obj | null {
  const session = store.get(id);
  return session?.object === "checkout.session" ? session : null;
}

/** The customer paid on the stand-in checkout (they are present: 3-D Secure passes). */
export function completeCheckout(store: StandInStore, sessionId: string, cardNumber: string): PageOutcome {
  const session = checkoutSession(store, sessionId);
  if (!session || session.status !== "open") return { ok: false, message: "This checkout is no longer open." };
  const card = testCard(cardNumber);
  if ("error" in card) return { ok: false, message: card.error };
  if (card.behaviour === "declines" || card.behaviour === "declines_after_attach")
    return { ok: false, message: "Your card was declined." };
  const customer = String(session.customer);
  const line = (session.line_items as { data: { price: Obj }[] }).data[0];
  const price = line ? priceById(line.price.id) : null;
  if (!price) return { ok: false, message: "This price no longer exists." };
  savePaymentMethod(store, customer, card);
  if (session.mode === "payment") {
    const paid = pay(
      store,
      customer,
      Number(price.unit_amount),
      `Credit pack ${String(price.lookup_key)}`,
      card.behaviour,
      true,
    );
    const done = store.put({
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: paid.paymentIntent,
    });
    store.recordEvent("checkout.session.completed", done);
    return { ok: true };
  }
  const start = store.now();
  const billing = billingOfPrice(price);
  const subId = newId("sub");
  const itemId = newId("si");
  const sub: Obj = {
    id: subId,
    object: "subscription",
    billing_cycle_anchor: start,
    billing_mode: { type: "classic" },
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    collection_method: "charge_automatically",
    created: start,
    currency: "usd",
    customer,
    default_payment_method: null,
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: list(`/v1/subscription_items?subscription=${subId}`, [
      {
        id: itemId,
        object: "subscription_item",
        created: start,
        current_period_end: periodEnd(start, billing),
        current_period_start: start,
        discounts: [],
        metadata: {},
        price,
        quantity: 1,
        subscription: subId,
        tax_rates: [],
      },
    ]),
    latest_invoice: null,
    livemode: false,
    metadata: {
      ...(store.get<Obj & { metadata: Record<string, string> }>(subscriptionDataId(session.id))?.metadata ?? {}),
    },
    pending_update: null,
    start_date: start,
    status: "active",
  };
  const item = subscriptionItem(sub);
  const invoice = newInvoice(store, sub, "subscription_create", [
    {
      amount: Number(price.unit_amount),
      description: `1 × ${String(price.lookup_key)}`,
      price: price.id,
      period: { start, end: item.current_period_end },
      proration: false,
      subscriptionItem: itemId,
    },
  ]);
  collect(store, invoice, true, card.behaviour);
  const active = store.put({ ...sub, latest_invoice: invoice.id });
  const done = store.put({ ...session, status: "complete", payment_status: "paid", subscription: subId });
  store.recordEvent("checkout.session.completed", done);
  store.recordEvent("customer.subscription.created", active);
  store.recordEvent("invoice.paid", store.get(invoice.id)!);
  return { ok: true };
}

/** Stripe gives the subscription it creates subscription_data's metadata; the session object has no such field. */
const subscriptionDataId = (sessionId: string) => `${sessionId}:subscription_data`;

/** Portal: replace the saved card (a declined card changes nothing). */
export function updateCard(store: StandInStore, customerId: string, cardNumber: string): PageOutcome {
  const card = testCard(cardNumber);
  if ("error" in card) return { ok: false, message: card.error };
  if (card.behaviour === "declines") return { ok: false, message: "Your card was declined." };
  savePaymentMethod(store, customerId, card);
  return { ok: true };
}

/** Portal: the next renewal of a subscription fails (what a developer uses to see the failed-payment path). */
export function failRenewal(store: StandInStore, subscriptionId: string): boolean {
  const sub = store.get(subscriptionId);
  if (!sub) return false;
  const item = subscriptionItem(sub);
  const start = item.current_period_end;
  const invoice = newInvoice(store, sub, "subscription_cycle", [
    {
      amount: Number(item.price.unit_amount),
      description: `1 × ${String(item.price.lookup_key)}`,
      price: item.price.id,
      period: { start, end: periodEnd(start, billingOfPrice(item.price)) },
      proration: false,
      subscriptionItem: item.id,
    },
  ]);
  collect(store, invoice, false, "declines");
  const pastDue = store.put({ ...sub, status: "past_due", latest_invoice: invoice.id });
  store.recordEvent("invoice.payment_failed", store.get(invoice.id)!);
  store.recordEvent("customer.subscription.updated", pastDue);
  return true;
}

/** The hosted invoice page: the customer pays an open invoice on-session (3-D Secure passes, a declined card fails). */
export function payInvoice(store: StandInStore, invoiceId: string): PageOutcome {
  const invoice = store.get(invoiceId);
  if (!invoice || invoice.object !== "invoice" || invoice.status !== "open")
    return { ok: false, message: "This invoice is not open for payment." };
  const attempt = collect(store, invoice, true);
  const after = store.get(invoiceId)!;
  if (attempt.status !== "succeeded") {
    store.recordEvent("invoice.payment_failed", after);
    return { ok: false, message: attempt.message };
  }
  store.recordEvent("invoice.paid", after);
  const subId = (invoice.parent as { subscription_details?: { subscription: string } } | null)?.subscription_details
    ?.subscription;
  const sub = subId ? store.get(subId) : null;
  if (sub?.pending_update && sub.latest_invoice === invoiceId) applyPendingUpdate(store, sub);
  return { ok: true };
}

// ── Subscriptions ─────────────────────────────────────────────────────────

interface PendingUpdate {
  expires_at: number;
  subscription_items: Obj[];
  metadata: Record<string, string> | null;
  cancel_at_period_end: boolean | null;
  billing_cycle_anchor: number | null;
  discount: null;
  discounts: null;
  trial_end: null;
  trial_from_plan: null;
}

function applyPendingUpdate(store: StandInStore, sub: Obj): Obj {
  const pending = sub.pending_update as PendingUpdate;
  const applied = store.put({
    ...sub,
    items: { ...(sub.items as object), data: pending.subscription_items },
    metadata: { ...(sub.metadata as object), ...(pending.metadata ?? {}) },
    cancel_at_period_end: pending.cancel_at_period_end ?? sub.cancel_at_period_end,
    pending_update: null,
  });
  store.recordEvent("customer.subscription.pending_update_applied", applied);
  store.recordEvent("customer.subscription.updated", applied);
  return applied;
}

/** A pending update past its expiry is dropped and its invoice voided, as Stripe does when nobody paid it. */
export function expirePendingUpdate(store: StandInStore, sub: Obj): Obj {
  const pending = sub.pending_update as PendingUpdate | null;
  if (!pending || pending.expires_at > store.now()) return sub;
  const invoice = typeof sub.latest_invoice === "string" ? store.get(sub.latest_invoice) : null;
  if (invoice?.status === "open") {
    const voided = store.put({
      ...invoice,
      status: "void",
      amount_remaining: 0,
      status_transitions: { ...(invoice.status_transitions as object), voided_at: store.now() },
    });
    store.recordEvent("invoice.voided", voided);
  }
  const expired = store.put({ ...sub, pending_update: null });
  store.recordEvent("customer.subscription.pending_update_expired", expired);
  store.recordEvent("customer.subscription.updated", expired);
  return expired;
}

/** Parameters Stripe accepts with payment_behavior=pending_if_incomplete (as of API 2026-10-28). */
const PENDING_UPDATE_PARAMS = new Set([
  "expand",
  "payment_behavior",
  "proration_behavior",
  "proration_date",
  "billing_cycle_anchor",
  "items",
  "trial_end",
  "trial_from_plan",
  "add_invoice_items",
  "metadata",
  "cancel_at_period_end",
]);

function updateSubscription(store: StandInStore, current: Obj, params: Params): Response {
  const sub = expirePendingUpdate(store, current);
  const pendingIfIncomplete = params.payment_behavior === "pending_if_incomplete";
  if (pendingIfIncomplete) {
    const unsupported = Object.keys(params).filter((k) => !PENDING_UPDATE_PARAMS.has(k));
    if (unsupported.length > 0)
      return stripeError(
        400,
        `You cannot pass ${unsupported.map((k) => `\`${k}\``).join(", ")} when \`payment_behavior\` is \`pending_if_incomplete\`.`,
        { param: unsupported[0] },
      );
  }
  const metadata =
    params.metadata && typeof params.metadata === "object" ? (params.metadata as Record<string, string>) : null;
  const cancelAtPeriodEnd = params.cancel_at_period_end === undefined ? null : params.cancel_at_period_end === "true";
  const items = params.items as { id?: string; price?: string }[] | undefined;
  const priceChange = items?.[0]?.price ? priceById(items[0].price) : null;
  if (items?.[0]?.price && !priceChange)
    return stripeError(400, `No such price: '${items[0].price}'`, { param: "items[0][price]" });

  // Changes that cost nothing apply at once.
  let next: Obj = {
    ...sub,
    metadata: metadata ? cleanMetadata({ ...(sub.metadata as object), ...metadata }) : sub.metadata,
    cancel_at_period_end: cancelAtPeriodEnd ?? sub.cancel_at_period_end,
  };
  let invoice: Obj | null = null;
  if (priceChange) {
    const item = subscriptionItem(sub);
    const t = store.now();
    const intervalChanged = billingOfPrice(priceChange) !== billingOfPrice(item.price);
    const newItem = intervalChanged
      ? {
          ...item,
          price: priceChange,
          current_period_start: t,
          current_period_end: periodEnd(t, billingOfPrice(priceChange)),
        }
      : { ...item, price: priceChange };
    const lines =
      params.proration_behavior === "always_invoice" ? prorationLines(item, newItem, t, intervalChanged) : [];
    if (lines.length > 0) {
      invoice = newInvoice(store, sub, "subscription_update", lines);
      const attempt = collect(store, invoice, false);
      invoice = store.get(invoice.id)!;
      if (attempt.status !== "succeeded" && pendingIfIncomplete) {
        // Nothing changes: the update waits on the subscription until the invoice is paid or it expires.
        const pending: PendingUpdate = {
          billing_cycle_anchor: intervalChanged ? t : null,
          cancel_at_period_end: cancelAtPeriodEnd,
          discount: null,
          discounts: null,
          expires_at: t + PENDING_UPDATE_SECONDS,
          metadata,
          subscription_items: [newItem],
          trial_end: null,
          trial_from_plan: null,
        };
        const waiting = store.put({ ...sub, pending_update: pending, latest_invoice: invoice.id });
        store.recordEvent(
          attempt.status === "requires_action" ? "invoice.payment_action_required" : "invoice.payment_failed",
          invoice,
        );
        store.recordEvent("customer.subscription.updated", waiting);
        return Response.json(expandObject(store, waiting, params.expand));
      }
      next = { ...next, latest_invoice: invoice.id, status: attempt.status === "succeeded" ? next.status : "past_due" };
    }
    next = { ...next, items: { ...(sub.items as object), data: [newItem] } };
  }
  store.put(next);
  store.recordEvent("customer.subscription.updated", next);
  if (invoice?.status === "paid") store.recordEvent("invoice.paid", invoice);
  return Response.json(expandObject(store, next, params.expand));
}

/** Stripe deletes a metadata key set to "". */
const cleanMetadata = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== ""));

/**
 * The proration of a price change at `t`: a credit for the unused time on the old price and a charge for the rest of
 * the period on the new one (the whole new period when the interval changes, which restarts the cycle).
 */
function prorationLines(
  item: ReturnType<typeof subscriptionItem>,
  newItem: ReturnType<typeof subscriptionItem>,
  t: number,
  intervalChanged: boolean,
): Line[] {
  const oldAmount = Number(item.price.unit_amount);
  const newAmount = Number(newItem.price.unit_amount);
  const total = item.current_period_end - item.current_period_start;
  const unused = Math.max(0, Math.min(1, (item.current_period_end - t) / total));
  const when = new Date(t * 1000).toISOString().slice(0, 10);
  const credit: Line = {
    amount: -Math.round(oldAmount * unused),
    description: `Unused time on ${String(item.price.lookup_key)} after ${when}`,
    price: item.price.id,
    period: { start: t, end: item.current_period_end },
    proration: true,
    subscriptionItem: item.id,
  };
  const charge: Line = intervalChanged
    ? {
        amount: newAmount,
        description: `1 × ${String(newItem.price.lookup_key)}`,
        price: newItem.price.id,
        period: { start: t, end: newItem.current_period_end },
        proration: false,
        subscriptionItem: item.id,
      }
    : {
        amount: Math.round(newAmount * unused),
        description: `Remaining time on ${String(newItem.price.lookup_key)} after ${when}`,
        price: newItem.price.id,
        period: { start: t, end: item.current_period_end },
        proration: true,
        subscriptionItem: item.id,
      };
  return [credit, charge];
}

function expandObject(store: StandInStore, obj: Obj, paths: unknown): Obj {
  const out: Obj = { ...obj };
  for (const path of Array.isArray(paths) ? (paths as string[]) : []) {
    if (path === "latest_invoice" && typeof out.latest_invoice === "string")
      out.latest_invoice = store.get(out.latest_invoice);
    if (path === "default_payment_method" && typeof out.default_payment_method === "string")
      out.default_payment_method = store.get(out.default_payment_method);
    if (path === "invoice_settings.default_payment_method") {
      const settings = out.invoice_settings as { default_payment_method: string | null } | undefined;
      if (settings?.default_payment_method)
        out.invoice_settings = { ...settings, default_payment_method: store.get(settings.default_payment_method) };
    }
  }
  return out;
}

function createRefund(store: StandInStore, params: Params): Response {
  const pi = store.get(String(params.payment_intent ?? ""));
  if (!pi)
    return stripeError(404, `No such payment_intent: '${String(params.payment_intent)}'`, { code: "resource_missing" });
  const charge = typeof pi.latest_charge === "string" ? store.get(pi.latest_charge) : null;
  if (!charge) return stripeError(400, "This payment has no charge to refund.");
  const left = Number(charge.amount) - Number(charge.amount_refunded);
  const amount = params.amount === undefined ? left : Number(params.amount);
  if (!(amount > 0) || amount > left)
    return stripeError(400, `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount.`, {
      code: "charge_already_refunded",
    });
  const refund = store.put({
    id: newId("re"),
    object: "refund",
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: store.now(),
    currency: "usd",
    metadata: params.metadata ?? {},
    payment_intent: pi.id,
    reason: params.reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  });
  const refunded = Number(charge.amount_refunded) + amount;
  const updated = store.put({ ...charge, amount_refunded: refunded, refunded: refunded >= Number(charge.amount) });
  store.recordEvent("charge.refunded", updated);
  return Response.json(refund);
}

/** Answers one SDK request the way Stripe would; unknown calls get Stripe's 404 shape. */
export function answer(store: StandInStore, method: string, url: URL, params: Params): Response {
  const path = url.pathname.replace(/\/+$/, "");
  const [, , resource, id, action, verb] = path.split("/");
  const t = store.now();
  if (resource === "customers" && method === "POST" && !id) {
    return Response.json(
      store.put({
        id: newId("cus"),
        object: "customer",
        balance: 0,
        created: t,
        default_source: null,
        description: null,
        email: params.email ?? null,
        invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
        livemode: false,
        metadata: params.metadata ?? {},
        name: params.name ?? null,
        shipping: null,
      }),
    );
  }
  if (resource === "prices" && method === "GET" && !id) {
    const keys = [...url.searchParams.entries()]
      .filter(([k]) => k.startsWith("lookup_keys"))
      .map(([, v]) => v)
      .filter((k) => ALL_LOOKUP_KEYS.includes(k));
    return Response.json(list("/v1/prices", keys.map(priceObject)));
  }
  if (resource === "checkout" && id === "sessions" && method === "POST" && !action) {
    const line = (params.line_items as { price: string; quantity?: string }[] | undefined)?.[0];
    const price = line ? priceById(line.price) : null;
    if (!price) return stripeError(400, "No such price.", { param: "line_items[0][price]" });
    const sessionId = newId("cs_test");
    const subscriptionData = params.subscription_data as { metadata?: Record<string, string> } | undefined;
    store.put({
      id: subscriptionDataId(sessionId),
      object: "stand_in.subscription_data",
      metadata: subscriptionData?.metadata ?? {},
    });
    return Response.json(
      store.put({
        id: sessionId,
        object: "checkout.session",
        amount_subtotal: price.unit_amount,
        amount_total: price.unit_amount,
        cancel_url: params.cancel_url ?? null,
        client_reference_id: params.client_reference_id ?? null,
        created: t,
        currency: "usd",
        customer: params.customer ?? null,
        expires_at: t + 24 * 3600,
        line_items: list(`/v1/checkout/sessions/${sessionId}/line_items`, [
          { id: newId("li"), object: "item", amount_total: price.unit_amount, price, quantity: 1 },
        ]),
        livemode: false,
        metadata: params.metadata ?? {},
        mode: params.mode,
        payment_intent: null,
        payment_status: "unpaid",
        status: "open",
        subscription: null,
        success_url: params.success_url ?? null,
        url: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/checkout/${sessionId}`,
      }),
    );
  }
  if (resource === "checkout" && id === "sessions" && method === "GET" && !action) {
    const [customer, status] = [url.searchParams.get("customer"), url.searchParams.get("status")];
    const sessions = store
      .ofType("checkout.session")
      .filter((c) => (!customer || c.customer === customer) && (!status || c.status === status));
    return Response.json(list("/v1/checkout/sessions", sessions.reverse()));
  }
  if (resource === "checkout" && id === "sessions" && method === "POST" && action && verb === "expire") {
    const session = checkoutSession(store, action);
    if (!session) return stripeError(404, `No such checkout.session: '${action}'`, { code: "resource_missing" });
    if (session.status !== "open")
      return stripeError(
        400,
        `Only Checkout Sessions with a status of open can be expired (this one is ${String(session.status)}).`,
      );
    return Response.json(store.put({ ...session, status: "expired", url: null }));
  }
  if (resource === "prices" && method === "GET" && id) {
    const price = priceById(id);
    return price ? Response.json(price) : stripeError(404, `No such price: '${id}'`, { code: "resource_missing" });
  }
  if (resource === "billing_portal" && id === "sessions" && method === "POST") {
    const portalId = newId("bps");
    return Response.json(
      store.put({
        id: portalId,
        object: "billing_portal.session",
        configuration: "bpc_local",
        created: t,
        customer: params.customer,
        flow: null,
        livemode: false,
        locale: null,
        on_behalf_of: null,
        return_url: params.return_url ?? null,
        url: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/portal/${portalId}`,
      }),
    );
  }
  if (resource === "refunds" && method === "POST" && !id) return createRefund(store, params);
  if (resource === "refunds" && method === "GET" && !id) {
    const charge = url.searchParams.get("charge");
    return Response.json(
      list(
        "/v1/refunds",
        store
          .ofType("refund")
          .filter((r) => r.charge === charge)
          .reverse(),
      ),
    );
  }
  const lookupId = resource === "checkout" ? action : id;
  if (lookupId && method === "GET") {
    const found = store.get(lookupId);
    if (!found) return stripeError(404, `No such ${resource}: '${lookupId}'`, { code: "resource_missing" });
    const obj = found.object === "subscription" ? expirePendingUpdate(store, found) : found;
    const paths = [...url.searchParams.entries()].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
    return Response.json(expandObject(store, obj, paths));
  }
  if (resource === "subscriptions" && id && method === "DELETE") {
    const sub = store.get(id);
    if (!sub || sub.object !== "subscription")
      return stripeError(404, `No such subscription: '${id}'`, { code: "resource_missing" });
    if (sub.status === "canceled") return Response.json(sub);
    // Cancelled at once (no invoice_now / prorate asked): ends now, and Stripe sends customer.subscription.deleted.
    const ended = store.put({ ...sub, status: "canceled", cancel_at_period_end: false, canceled_at: t, ended_at: t });
    store.recordEvent("customer.subscription.deleted", ended);
    return Response.json(ended);
  }
  if (resource === "subscriptions" && id && method === "POST") {
    const sub = store.get(id);
    if (!sub) return stripeError(404, `No such subscription: '${id}'`, { code: "resource_missing" });
    return updateSubscription(store, sub, params);
  }
  return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
}
