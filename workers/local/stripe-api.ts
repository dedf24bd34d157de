/**
 * Local only: the Stripe API as far as ClipCut calls it, answered at the SDK's fetch boundary with Stripe's shapes
 * (API version 2026-10-28.endive), over the stand-in's own storage (stand-in-object.ts). It records the events Stripe
 * would send; the local entry signs them and posts them to /webhooks/stripe. Card data is never stored.
 */
import { CREDIT_PACKS, PAID_PLAN_IDS, priceLookupKey, type Billing } from "../../app/domain/plans";
import type Stripe from "stripe";
import {
  billingOfPrice,
  cardPaymentMethod,
  chargeObject,
  checkoutLineItem,
  checkoutSessionObject,
  customerObject,
  invoiceAttempt,
  invoiceLine,
  list,
  openInvoice,
  paymentIntentObject,
  periodEnd,
  portalSessionObject,
  priceObject,
  refundObject,
  subscriptionItemObject,
  subscriptionObject,
  type PaymentOutcome,
} from "./stripe-objects";

/** Any Stripe object as stored: every one has an id and names its type. */
export interface StripeObject {
  id: string;
  object: string;
}
/** A stored object read without its type (the hosted pages only show a few fields). */
export type Obj = Record<string, unknown> & StripeObject;
export type Params = Record<string, unknown>;

/** What the stand-in object offers the API: its clock (seconds; tests move it) and its objects and events. */
export interface StandInStore {
  now(): number;
  /** The stored object with this id; the caller names its type (the id's prefix says which it is). */
  get<T extends StripeObject = Obj>(id: string): T | null;
  put<T extends StripeObject>(obj: T): T;
  ofType<T extends StripeObject = Obj>(type: string): T[];
  recordEvent(type: Stripe.Event.Type, object: StripeObject): void;
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
  card: { behaviour: CardBehaviour | null; paymentMethod: string | null },
  onSession: boolean,
): Attempt {
  const piId = newId("pi");
  const t = store.now();
  const { behaviour } = card;
  const outcome: PaymentOutcome =
    behaviour === "succeeds" || (behaviour === "authenticates" && onSession)
      ? "succeeded"
      : behaviour === "authenticates"
        ? "requires_action"
        : "requires_payment_method";
  const declined = outcome === "requires_payment_method";
  // A payment waiting for authentication has not reached the card network yet: no charge.
  const charge =
    outcome === "requires_action"
      ? null
      : store.put(
          chargeObject({
            id: newId("ch"),
            customer,
            amount,
            created: t,
            description,
            paymentIntent: piId,
            paymentMethod: card.paymentMethod,
            declined,
          }),
        );
  store.put(
    paymentIntentObject({
      id: piId,
      customer,
      amount,
      created: t,
      description,
      outcome,
      charge: charge?.id ?? null,
      paymentMethod: card.paymentMethod,
    }),
  );
  if (outcome === "succeeded") return { status: outcome, paymentIntent: piId };
  const message = declined
    ? "Your card was declined."
    : "This payment needs the customer to authenticate (3-D Secure).";
  return { status: outcome, paymentIntent: piId, message };
}

/** The customer's default card and how it behaves (a test card's behaviour is kept on the payment method). */
function defaultCard(
  store: StandInStore,
  customerId: string,
): { behaviour: CardBehaviour | null; paymentMethod: string | null } {
  const customer = store.get<Stripe.Customer>(customerId);
  const pmId = idOf(customer?.invoice_settings.default_payment_method ?? null);
  const pm = pmId ? store.get<Stripe.PaymentMethod>(pmId) : null;
  const behaviour = pm?.metadata?.behaviour;
  return { behaviour: isCardBehaviour(behaviour) ? behaviour : null, paymentMethod: pm?.id ?? null };
}

const CARD_BEHAVIOURS: readonly string[] = ["succeeds", "declines", "declines_after_attach", "authenticates"];
const isCardBehaviour = (v: unknown): v is CardBehaviour => typeof v === "string" && CARD_BEHAVIOURS.includes(v);

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

// ── Invoices ─────────────────────────────────────────────────────────────

interface Line {
  amount: number;
  description: string;
  price: Stripe.Price;
  period: { start: number; end: number };
  /** A proration line (credit for unused time, or the remaining time on the new price). */
  proration: boolean;
  subscriptionItem: string;
}

/** A finalized invoice for a subscription. Its metadata is the subscription's as it is now, before any payment. */
function newInvoice(
  store: StandInStore,
  sub: Stripe.Subscription,
  billingReason: Stripe.Invoice.BillingReason,
  lines: Line[],
): Stripe.Invoice {
  const id = newId("in");
  return store.put(
    openInvoice({
      id,
      number: `LOCAL-${String(store.ofType("invoice").length + 1).padStart(4, "0")}`,
      customer: String(idOf(sub.customer)),
      created: store.now(),
      billingReason,
      subscription: sub.id,
      subscriptionMetadata: { ...sub.metadata },
      lines: lines.map((line) =>
        invoiceLine({
          ...line,
          id: newId("il"),
          invoice: id,
          subscription: sub.id,
          price: line.price.id,
          product: idOf(line.price.product),
          invoiceItem: line.proration ? newId("ii") : null,
        }),
      ),
    }),
  );
}

/** Tries to pay an open invoice; records the invoice payment either way. */
function collect(
  store: StandInStore,
  invoice: Stripe.Invoice,
  onSession: boolean,
  card?: { behaviour: CardBehaviour | null; paymentMethod: string | null },
): Attempt {
  const customer = String(idOf(invoice.customer));
  const attempt: Attempt =
    invoice.amount_due === 0
      ? { status: "succeeded", paymentIntent: "" }
      : pay(
          store,
          customer,
          invoice.amount_due,
          `Invoice ${invoice.number ?? invoice.id}`,
          card ?? defaultCard(store, customer),
          onSession,
        );
  store.put(
    invoiceAttempt(invoice, {
      at: store.now(),
      paid: attempt.status === "succeeded",
      paymentIntent: attempt.paymentIntent || null,
      paymentId: newId("inpay"),
      hostedUrl: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/invoice/${invoice.id}`,
    }),
  );
  return attempt;
}

/** Hosted pages live on the site's own origin; the local entry fills it in when it answers. */
export const LOCAL_ORIGIN_PLACEHOLDER = "{{origin}}";

const subscriptionItem = (sub: Stripe.Subscription) => sub.items.data[0]!;

function subscription(store: StandInStore, id: string): Stripe.Subscription | null {
  const sub = store.get<Stripe.Subscription>(id);
  return sub?.object === "subscription" ? sub : null;
}

function invoiceOf(store: StandInStore, id: string): Stripe.Invoice | null {
  const invoice = store.get<Stripe.Invoice>(id);
  return invoice?.object === "invoice" ? invoice : null;
}

// ── What a customer does on Stripe's pages (not API calls) ────────────────

export type PageOutcome = { ok: true } | { ok: false; message: string };

function savePaymentMethod(store: StandInStore, customerId: string, card: { behaviour: CardBehaviour; last4: string }) {
  const pm = store.put(
    cardPaymentMethod({
      id: newId("pm"),
      customer: customerId,
      created: store.now(),
      last4: card.last4,
      behaviour: card.behaviour,
    }),
  );
  const customer = store.get<Stripe.Customer>(customerId);
  if (customer)
    store.put({ ...customer, invoice_settings: { ...customer.invoice_settings, default_payment_method: pm.id } });
  return pm.id;
}

export function checkoutSession(store: StandInStore, id: string): Stripe.Checkout.Session | null {
  const session = store.get<Stripe.Checkout.Session>(id);
  return session?.object === "checkout.session" ? session : null;
}

/**
 * What the stand-in keeps beside a Checkout Session: its line items (Stripe answers them only when expanded) and the
 * subscription_data Stripe gives the subscription it creates. Neither is a field of the session object.
 */
interface SessionExtras extends StripeObject {
  object: "stand_in.session_extras";
  line_items: Stripe.LineItem[];
  subscription_metadata: Stripe.Metadata;
}
const extrasId = (sessionId: string) => `${sessionId}:extras`;

/** The price a Checkout Session sells. */
export function checkoutPrice(store: StandInStore, sessionId: string): Stripe.Price | null {
  return store.get<SessionExtras>(extrasId(sessionId))?.line_items[0]?.price ?? null;
}

/** The customer paid on the stand-in checkout (they are present: 3-D Secure passes). */
export function completeCheckout(store: StandInStore, sessionId: string, cardNumber: string): PageOutcome {
  const session = checkoutSession(store, sessionId);
  if (!session || session.status !== "open") return { ok: false, message: "This checkout is no longer open." };
  const card = testCard(cardNumber);
  if ("error" in card) return { ok: false, message: card.error };
  if (card.behaviour === "declines" || card.behaviour === "declines_after_attach")
    return { ok: false, message: "Your card was declined." };
  const customer = String(idOf(session.customer));
  const extras = store.get<SessionExtras>(extrasId(sessionId));
  const listed = extras?.line_items[0]?.price;
  const price = listed ? priceById(listed.id) : null;
  if (!price) return { ok: false, message: "This price no longer exists." };
  const paymentMethod = savePaymentMethod(store, customer, card);
  if (session.mode === "payment") {
    const paid = pay(
      store,
      customer,
      price.unit_amount ?? 0,
      `Credit pack ${String(price.lookup_key)}`,
      { behaviour: card.behaviour, paymentMethod },
      true,
    );
    const done = store.put({
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: paid.paymentIntent,
    } satisfies Stripe.Checkout.Session);
    store.recordEvent("checkout.session.completed", done);
    return { ok: true };
  }
  const start = store.now();
  const subId = newId("sub");
  const item = subscriptionItemObject({
    id: newId("si"),
    subscription: subId,
    price,
    created: start,
    periodStart: start,
    periodEnd: periodEnd(start, billingOfPrice(price)),
  });
  const sub = subscriptionObject({
    id: subId,
    customer,
    created: start,
    item,
    metadata: { ...(extras?.subscription_metadata ?? {}) },
    latestInvoice: null,
  });
  const invoice = newInvoice(store, sub, "subscription_create", [
    {
      amount: price.unit_amount ?? 0,
      description: `1 × ${String(price.lookup_key)}`,
      price,
      period: { start, end: item.current_period_end },
      proration: false,
      subscriptionItem: item.id,
    },
  ]);
  collect(store, invoice, true, { behaviour: card.behaviour, paymentMethod });
  const active = store.put({ ...sub, latest_invoice: invoice.id } satisfies Stripe.Subscription);
  const done = store.put({
    ...session,
    status: "complete",
    payment_status: "paid",
    subscription: subId,
  } satisfies Stripe.Checkout.Session);
  store.recordEvent("checkout.session.completed", done);
  store.recordEvent("customer.subscription.created", active);
  store.recordEvent("invoice.paid", invoiceOf(store, invoice.id)!);
  return { ok: true };
}

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
  const sub = subscription(store, subscriptionId);
  if (!sub) return false;
  const item = subscriptionItem(sub);
  const start = item.current_period_end;
  const invoice = newInvoice(store, sub, "subscription_cycle", [
    {
      amount: item.price.unit_amount ?? 0,
      description: `1 × ${String(item.price.lookup_key)}`,
      price: item.price,
      period: { start, end: periodEnd(start, billingOfPrice(item.price)) },
      proration: false,
      subscriptionItem: item.id,
    },
  ]);
  collect(store, invoice, false, { behaviour: "declines", paymentMethod: null });
  const pastDue = store.put({ ...sub, status: "past_due", latest_invoice: invoice.id } satisfies Stripe.Subscription);
  store.recordEvent("invoice.payment_failed", invoiceOf(store, invoice.id)!);
  store.recordEvent("customer.subscription.updated", pastDue);
  return true;
}

/** The hosted invoice page: the customer pays an open invoice on-session (3-D Secure passes, a declined card fails). */
export function payInvoice(store: StandInStore, invoiceId: string): PageOutcome {
  const invoice = invoiceOf(store, invoiceId);
  if (!invoice || invoice.status !== "open") return { ok: false, message: "This invoice is not open for payment." };
  const attempt = collect(store, invoice, true);
  const after = invoiceOf(store, invoiceId)!;
  if (attempt.status !== "succeeded") {
    store.recordEvent("invoice.payment_failed", after);
    return { ok: false, message: attempt.message };
  }
  store.recordEvent("invoice.paid", after);
  const subId = idOf(invoice.parent?.subscription_details?.subscription);
  const sub = subId ? subscription(store, subId) : null;
  if (sub?.pending_update && sub.latest_invoice === invoiceId) applyPendingUpdate(store, sub, sub.pending_update);
  return { ok: true };
}

// ── Subscriptions ─────────────────────────────────────────────────────────

function applyPendingUpdate(
  store: StandInStore,
  sub: Stripe.Subscription,
  pending: Stripe.Subscription.PendingUpdate,
): Stripe.Subscription {
  const applied = store.put({
    ...sub,
    items: { ...sub.items, data: pending.subscription_items ?? sub.items.data },
    metadata: { ...sub.metadata, ...(pending.metadata ?? {}) },
    cancel_at_period_end: pending.cancel_at_period_end ?? sub.cancel_at_period_end,
    pending_update: null,
  } satisfies Stripe.Subscription);
  store.recordEvent("customer.subscription.pending_update_applied", applied);
  store.recordEvent("customer.subscription.updated", applied);
  return applied;
}

/** A pending update past its expiry is dropped and its invoice voided, as Stripe does when nobody paid it. */
export function expirePendingUpdate(store: StandInStore, sub: Stripe.Subscription): Stripe.Subscription {
  const pending = sub.pending_update;
  if (!pending || pending.expires_at > store.now()) return sub;
  const invoice = typeof sub.latest_invoice === "string" ? invoiceOf(store, sub.latest_invoice) : null;
  if (invoice?.status === "open") {
    const voided = store.put({
      ...invoice,
      status: "void",
      amount_remaining: 0,
      status_transitions: { ...invoice.status_transitions, voided_at: store.now() },
    } satisfies Stripe.Invoice);
    store.recordEvent("invoice.voided", voided);
  }
  const expired = store.put({ ...sub, pending_update: null } satisfies Stripe.Subscription);
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

function updateSubscription(store: StandInStore, current: Stripe.Subscription, params: Params): Response {
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
  const metadata = stringRecord(params.metadata);
  const cancelAtPeriodEnd = params.cancel_at_period_end === undefined ? null : params.cancel_at_period_end === "true";
  const items = params.items as { id?: string; price?: string }[] | undefined;
  const priceChange = items?.[0]?.price ? priceById(items[0].price) : null;
  if (items?.[0]?.price && !priceChange)
    return stripeError(400, `No such price: '${items[0].price}'`, { param: "items[0][price]" });

  // Changes that cost nothing apply at once.
  let next: Stripe.Subscription = {
    ...sub,
    metadata: metadata ? cleanMetadata({ ...sub.metadata, ...metadata }) : sub.metadata,
    cancel_at_period_end: cancelAtPeriodEnd ?? sub.cancel_at_period_end,
  };
  let invoice: Stripe.Invoice | null = null;
  if (priceChange) {
    const item = subscriptionItem(sub);
    const t = store.now();
    const intervalChanged = billingOfPrice(priceChange) !== billingOfPrice(item.price);
    const newItem = subscriptionItemObject({
      id: item.id,
      subscription: sub.id,
      price: priceChange,
      created: item.created,
      periodStart: intervalChanged ? t : item.current_period_start,
      periodEnd: intervalChanged ? periodEnd(t, billingOfPrice(priceChange)) : item.current_period_end,
    });
    const lines =
      params.proration_behavior === "always_invoice" ? prorationLines(item, newItem, t, intervalChanged) : [];
    if (lines.length > 0) {
      invoice = newInvoice(store, sub, "subscription_update", lines);
      const attempt = collect(store, invoice, false);
      invoice = invoiceOf(store, invoice.id)!;
      if (attempt.status !== "succeeded" && pendingIfIncomplete) {
        // Nothing changes: the update waits on the subscription until the invoice is paid or it expires.
        const waiting = store.put({
          ...sub,
          latest_invoice: invoice.id,
          pending_update: {
            billing_cycle_anchor: intervalChanged ? t : null,
            cancel_at_period_end: cancelAtPeriodEnd,
            discount: null,
            discounts: null,
            expires_at: t + PENDING_UPDATE_SECONDS,
            metadata,
            subscription_items: [newItem],
            trial_end: null,
            trial_from_plan: null,
          },
        } satisfies Stripe.Subscription);
        store.recordEvent(
          attempt.status === "requires_action" ? "invoice.payment_action_required" : "invoice.payment_failed",
          invoice,
        );
        store.recordEvent("customer.subscription.updated", waiting);
        return Response.json(expandObject(store, waiting, params.expand));
      }
      next = { ...next, latest_invoice: invoice.id, status: attempt.status === "succeeded" ? next.status : "past_due" };
    }
    next = { ...next, items: { ...sub.items, data: [newItem] } };
  }
  store.put(next);
  store.recordEvent("customer.subscription.updated", next);
  if (invoice?.status === "paid") store.recordEvent("invoice.paid", invoice);
  return Response.json(expandObject(store, next, params.expand));
}

/** A form's nested object of strings (metadata), or null when the request did not send one. */
function stringRecord(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** Stripe deletes a metadata key set to "". */
const cleanMetadata = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== ""));

/**
 * The proration of a price change at `t`: a credit for the unused time on the old price and a charge for the rest of
 * the period on the new one (the whole new period when the interval changes, which restarts the cycle).
 */
function prorationLines(
  item: Stripe.SubscriptionItem,
  newItem: Stripe.SubscriptionItem,
  t: number,
  intervalChanged: boolean,
): Line[] {
  const oldAmount = item.price.unit_amount ?? 0;
  const newAmount = newItem.price.unit_amount ?? 0;
  const total = item.current_period_end - item.current_period_start;
  const unused = Math.max(0, Math.min(1, (item.current_period_end - t) / total));
  const when = new Date(t * 1000).toISOString().slice(0, 10);
  const credit: Line = {
    amount: -Math.round(oldAmount * unused),
    description: `Unused time on ${String(item.price.lookup_key)} after ${when}`,
    price: item.price,
    period: { start: t, end: item.current_period_end },
    proration: true,
    subscriptionItem: item.id,
  };
  const charge: Line = intervalChanged
    ? {
        amount: newAmount,
        description: `1 × ${String(newItem.price.lookup_key)}`,
        price: newItem.price,
        period: { start: t, end: newItem.current_period_end },
        proration: false,
        subscriptionItem: item.id,
      }
    : {
        amount: Math.round(newAmount * unused),
        description: `Remaining time on ${String(newItem.price.lookup_key)} after ${when}`,
        price: newItem.price,
        period: { start: t, end: item.current_period_end },
        proration: true,
        subscriptionItem: item.id,
      };
  return [credit, charge];
}

/** The object with the asked-for ids replaced by the objects they name, as Stripe's `expand` does. */
function expandObject(store: StandInStore, obj: StripeObject, paths: unknown): StripeObject {
  const out: Obj = { ...obj };
  const expand = (id: unknown) => (typeof id === "string" ? store.get(id) : id);
  for (const path of Array.isArray(paths) ? paths : []) {
    if (path === "latest_invoice") out.latest_invoice = expand(out.latest_invoice);
    if (path === "default_payment_method") out.default_payment_method = expand(out.default_payment_method);
    if (path === "invoice_settings.default_payment_method") {
      const settings = out.invoice_settings as { default_payment_method: unknown } | undefined;
      if (settings)
        out.invoice_settings = { ...settings, default_payment_method: expand(settings.default_payment_method) };
    }
  }
  return out;
}

function createRefund(store: StandInStore, params: Params): Response {
  const pi = store.get<Stripe.PaymentIntent>(String(params.payment_intent ?? ""));
  if (pi?.object !== "payment_intent")
    return stripeError(404, `No such payment_intent: '${String(params.payment_intent)}'`, { code: "resource_missing" });
  const chargeId = idOf(pi.latest_charge);
  const charge = chargeId ? store.get<Stripe.Charge>(chargeId) : null;
  if (!charge) return stripeError(400, "This payment has no charge to refund.");
  const left = charge.amount - charge.amount_refunded;
  const amount = params.amount === undefined ? left : Number(params.amount);
  if (!(amount > 0) || amount > left)
    return stripeError(400, `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount.`, {
      code: "charge_already_refunded",
    });
  const reason = REFUND_REASONS.find((r) => r === params.reason) ?? null;
  const refund = store.put(
    refundObject({
      id: newId("re"),
      amount,
      charge: charge.id,
      customer: idOf(charge.customer),
      paymentIntent: pi.id,
      created: store.now(),
      reason,
      metadata: stringRecord(params.metadata) ?? {},
    }),
  );
  const refunded = charge.amount_refunded + amount;
  const updated = store.put({
    ...charge,
    amount_refunded: refunded,
    refunded: refunded >= charge.amount,
  } satisfies Stripe.Charge);
  store.recordEvent("charge.refunded", updated);
  return Response.json(refund);
}

const REFUND_REASONS: readonly Stripe.Refund.Reason[] = [
  "duplicate",
  "expired_uncaptured_charge",
  "fraudulent",
  "requested_by_customer",
];

/** Answers one SDK request the way Stripe would; unknown calls get Stripe's 404 shape. */
export function answer(store: StandInStore, method: string, url: URL, params: Params): Response {
  const path = url.pathname.replace(/\/+$/, "");
  const [, , resource, id, action, verb] = path.split("/");
  const t = store.now();
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  if (resource === "customers" && method === "POST" && !id) {
    return Response.json(
      store.put(
        customerObject({
          id: newId("cus"),
          created: t,
          email: text(params.email),
          name: text(params.name),
          metadata: stringRecord(params.metadata) ?? {},
        }),
      ),
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
    const mode = params.mode === "subscription" || params.mode === "payment" ? params.mode : null;
    if (!mode)
      return stripeError(400, "Invalid mode: must be one of payment, setup or subscription.", { param: "mode" });
    const sessionId = newId("cs_test");
    store.put<SessionExtras>({
      id: extrasId(sessionId),
      object: "stand_in.session_extras",
      line_items: [checkoutLineItem(newId("li"), price)],
      subscription_metadata: stringRecord((params.subscription_data as Params | undefined)?.metadata) ?? {},
    });
    return Response.json(
      store.put(
        checkoutSessionObject({
          id: sessionId,
          mode,
          customer: text(params.customer),
          amount: price.unit_amount ?? 0,
          created: t,
          clientReferenceId: text(params.client_reference_id),
          metadata: stringRecord(params.metadata) ?? {},
          successUrl: text(params.success_url),
          cancelUrl: text(params.cancel_url),
          url: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/checkout/${sessionId}`,
        }),
      ),
    );
  }
  if (resource === "checkout" && id === "sessions" && method === "GET" && !action) {
    const [customer, status] = [url.searchParams.get("customer"), url.searchParams.get("status")];
    const sessions = store
      .ofType<Stripe.Checkout.Session>("checkout.session")
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
    return Response.json(store.put({ ...session, status: "expired", url: null } satisfies Stripe.Checkout.Session));
  }
  if (resource === "prices" && method === "GET" && id) {
    const price = priceById(id);
    return price ? Response.json(price) : stripeError(404, `No such price: '${id}'`, { code: "resource_missing" });
  }
  if (resource === "billing_portal" && id === "sessions" && method === "POST") {
    const portalId = newId("bps");
    const customer = text(params.customer);
    if (!customer) return stripeError(400, "Missing required param: customer.", { param: "customer" });
    return Response.json(
      store.put(
        portalSessionObject({
          id: portalId,
          customer,
          created: t,
          returnUrl: text(params.return_url),
          url: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/portal/${portalId}`,
        }),
      ),
    );
  }
  if (resource === "refunds" && method === "POST" && !id) return createRefund(store, params);
  if (resource === "refunds" && method === "GET" && !id) {
    const charge = url.searchParams.get("charge");
    return Response.json(
      list(
        "/v1/refunds",
        store
          .ofType<Stripe.Refund>("refund")
          .filter((r) => r.charge === charge)
          .reverse(),
      ),
    );
  }
  const lookupId = resource === "checkout" ? action : id;
  if (lookupId && method === "GET" && !lookupId.includes(":")) {
    const found = store.get(lookupId);
    if (!found) return stripeError(404, `No such ${resource}: '${lookupId}'`, { code: "resource_missing" });
    const sub = found.object === "subscription" ? subscription(store, lookupId) : null;
    const obj = sub ? expirePendingUpdate(store, sub) : found;
    const paths = [...url.searchParams.entries()].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
    return Response.json(expandObject(store, obj, paths));
  }
  if (resource === "subscriptions" && id && method === "DELETE") {
    const sub = subscription(store, id);
    if (!sub) return stripeError(404, `No such subscription: '${id}'`, { code: "resource_missing" });
    if (sub.status === "canceled") return Response.json(sub);
    // Cancelled at once (no invoice_now / prorate asked): ends now, and Stripe sends customer.subscription.deleted.
    const ended = store.put({
      ...sub,
      status: "canceled",
      cancel_at_period_end: false,
      canceled_at: t,
      ended_at: t,
      cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: "cancellation_requested" },
    } satisfies Stripe.Subscription);
    store.recordEvent("customer.subscription.deleted", ended);
    return Response.json(ended);
  }
  if (resource === "subscriptions" && id && method === "POST") {
    const sub = subscription(store, id);
    if (!sub) return stripeError(404, `No such subscription: '${id}'`, { code: "resource_missing" });
    return updateSubscription(store, sub, params);
  }
  return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
}
