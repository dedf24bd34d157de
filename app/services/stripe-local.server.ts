/**
 * Local mode only: a small stand-in for the Stripe API, answered at the network boundary (the SDK's fetch), with its
 * objects in D1. It speaks the shapes of API version 2026-10-28 for the calls ClipCut makes, and records the events
 * Stripe would send; `deliverLocalEvents` (stripe-webhook.server.ts) signs them and posts them to /webhooks/stripe.
 * Nothing here runs when STRIPE_SECRET_KEY is set. Card data typed into the stand-in checkout is never stored.
 */
import {
  creditPack,
  CREDIT_PACKS,
  PAID_PLAN_IDS,
  planOfLookupKey,
  planPeriodPriceCents,
  priceLookupKey,
  type Billing,
} from "~/domain/plans";
import { localObject, localObjectsOfType, putLocalObject } from "~/db/billing.server";
import type { Db } from "~/db/client.server";

type Obj = Record<string, unknown> & { id: string };
type Params = Record<string, unknown>;

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;

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
  if (plan) {
    return {
      id: `price_${lookupKey}`,
      object: "price",
      active: true,
      currency: "usd",
      lookup_key: lookupKey,
      product: `prod_${plan.plan.toLowerCase()}`,
      type: "recurring",
      recurring: { interval: plan.billing === "yearly" ? "year" : "month", interval_count: 1 },
      unit_amount: planPeriodPriceCents(plan.plan, plan.billing),
    };
  }
  const pack = creditPack(lookupKey);
  if (!pack) return null;
  return {
    id: `price_${lookupKey}`,
    object: "price",
    active: true,
    currency: "usd",
    lookup_key: lookupKey,
    product: `prod_${lookupKey}`,
    type: "one_time",
    recurring: null,
    unit_amount: pack.priceCents,
  };
}

const ALL_LOOKUP_KEYS = [
  ...PAID_PLAN_IDS.flatMap((p) => (["monthly", "yearly"] as Billing[]).map((b) => priceLookupKey(p, b))),
  ...CREDIT_PACKS.map((p) => p.id),
];
const priceById = (id: string) => priceObject(id.replace(/^price_/, ""));

// ── Errors in Stripe's shape ───────────────────────────────────────────────

function stripeError(status: number, message: string, extra: Record<string, unknown> = {}): Response {
  return Response.json(
    { error: { type: status === 402 ? "card_error" : "invalid_request_error", message, ...extra } },
    { status },
  );
}

const list = (url: string, data: unknown[]) => ({ object: "list", url, has_more: false, data });

// ── Store ────────────────────────────────────────────────────────────────

async function get(db: Db, id: string): Promise<Obj | null> {
  return localObject<Obj>(db, id);
}
async function put(db: Db, obj: Obj): Promise<Obj> {
  await putLocalObject(db, obj.id, String(obj.object), obj);
  return obj;
}

/** Records an event Stripe would send, with a snapshot of its object, for delivery to /webhooks/stripe. */
export async function recordEvent(db: Db, type: string, object: Obj): Promise<void> {
  const id = newId("evt");
  await putLocalObject(
    db,
    id,
    "event",
    {
      id,
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    },
    0,
  );
}

/** Calendar month / year after `start` (seconds), as Stripe bills. */
function periodEnd(start: number, billing: Billing): number {
  const d = new Date(start * 1000);
  if (billing === "yearly") d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

const billingOfPrice = (price: Obj) =>
  (price.recurring as { interval: string } | null)?.interval === "year" ? "yearly" : "monthly";

// ── Payments: a payment intent and its charge, paid with a saved card ────────

async function payAmount(db: Db, customer: string, amount: number, description: string) {
  const pi = newId("pi");
  const charge: Obj = {
    id: newId("ch"),
    object: "charge",
    amount,
    amount_captured: amount,
    amount_refunded: 0,
    currency: "usd",
    customer,
    description,
    paid: true,
    payment_intent: pi,
    refunded: false,
    status: "succeeded",
    created: now(),
  };
  await put(db, charge);
  await put(db, {
    id: pi,
    object: "payment_intent",
    amount,
    amount_received: amount,
    currency: "usd",
    customer,
    description,
    latest_charge: charge.id,
    status: "succeeded",
    created: now(),
  });
  return { paymentIntent: pi, charge: charge.id };
}

async function newInvoice(
  db: Db,
  sub: Obj,
  amount: number,
  billingReason: string,
  period: { start: number; end: number },
  status: "paid" | "open",
  prorations?: ProrationLine[],
) {
  const customer = String(sub.customer);
  const id = newId("in");
  const paid = status === "paid" ? await payAmount(db, customer, amount, `Subscription ${billingReason}`) : null;
  const count = (await localObjectsOfType(db, "invoice")).length + 1;
  const invoice: Obj = {
    id,
    object: "invoice",
    number: `LOCAL-${String(count).padStart(4, "0")}`,
    customer,
    status,
    currency: "usd",
    amount_due: amount,
    amount_paid: status === "paid" ? amount : 0,
    amount_remaining: status === "paid" ? 0 : amount,
    total: amount,
    billing_reason: billingReason,
    created: now(),
    period_start: period.start,
    period_end: period.end,
    hosted_invoice_url: null,
    invoice_pdf: null,
    attempt_count: 1,
    status_transitions: { paid_at: status === "paid" ? now() : null, finalized_at: now() },
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { subscription: sub.id, metadata: { ...(sub.metadata as object) } },
    },
    lines: list(
      `/v1/invoices/${id}/lines`,
      (prorations ?? [{ amount, price: subscriptionItem(sub).price, ...period, proration: false }]).map((line) =>
        invoiceLine(id, sub, line),
      ),
    ),
    payments: list(
      `/v1/invoices/${id}/payments`,
      paid
        ? [
            {
              id: newId("inpay"),
              object: "invoice_payment",
              invoice: id,
              is_default: true,
              status: "paid",
              amount_paid: amount,
              payment: { type: "payment_intent", payment_intent: paid.paymentIntent },
            },
          ]
        : [],
    ),
  };
  return put(db, invoice);
}

/** A line of an invoice: what it charged for which price and period; prorations say so in their parent. */
interface ProrationLine {
  amount: number;
  price: Obj;
  start: number;
  end: number;
  proration: boolean;
}

function invoiceLine(invoice: string, sub: Obj, line: ProrationLine): Obj {
  return {
    id: newId("il"),
    object: "line_item",
    invoice,
    amount: line.amount,
    currency: "usd",
    description: null,
    period: { start: line.start, end: line.end },
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: line.proration,
        proration_details: null,
        subscription: sub.id,
        subscription_item: subscriptionItem(sub).id,
      },
    },
    pricing: { type: "price_details", price_details: { price: line.price.id, product: line.price.product } },
  };
}

function subscriptionItem(sub: Obj) {
  return (sub.items as { data: (Obj & { price: Obj; current_period_start: number; current_period_end: number })[] })
    .data[0]!;
}

// ── The stand-in pages' actions (not Stripe API: what a customer does on Stripe's pages) ───────

export type CardOutcome = { ok: true } | { ok: false; message: string };

/** Stripe's test cards: 4242… succeeds, 4000 0000 0000 0002 is declined; anything else is not a card we know. */
export function checkTestCard(number: string): CardOutcome {
  const digits = number.replace(/[\s-]/g, "");
  if (digits === "4242424242424242") return { ok: true };
  if (digits === "4000000000000002") return { ok: false, message: "Your card was declined." };
  return { ok: false, message: "Your card number is invalid. Use a Stripe test card such as 4242 4242 4242 4242." };
}

export async function localCheckoutSession(db: Db, id: string): Promise<Obj | null> {
  const session = await get(db, id);
  return session?.object === "checkout.session" ? session : null;
}

async function savePaymentMethod(db: Db, customerId: string, last4: string): Promise<string> {
  const pm: Obj = {
    id: newId("pm"),
    object: "payment_method",
    type: "card",
    customer: customerId,
    card: { brand: "visa", last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 },
  };
  await put(db, pm);
  const customer = await get(db, customerId);
  if (customer) await put(db, { ...customer, invoice_settings: { default_payment_method: pm.id } });
  return pm.id;
}

/** The customer paid on the stand-in checkout: the objects and events Stripe would create. */
export async function completeLocalCheckout(db: Db, sessionId: string, cardNumber: string): Promise<CardOutcome> {
  const session = await localCheckoutSession(db, sessionId);
  if (!session || session.status !== "open") return { ok: false, message: "This checkout is no longer open." };
  const card = checkTestCard(cardNumber);
  if (!card.ok) return card;
  const customer = String(session.customer);
  await savePaymentMethod(db, customer, cardNumber.replace(/\D/g, "").slice(-4));
  const price = priceById(String(session.price));
  if (!price) return { ok: false, message: "This price no longer exists." };
  if (session.mode === "payment") {
    const paid = await payAmount(db, customer, Number(price.unit_amount), `Credit pack ${price.lookup_key}`);
    const done = await put(db, {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: paid.paymentIntent,
    });
    await recordEvent(db, "checkout.session.completed", done);
    return { ok: true };
  }
  const start = now();
  const billing = billingOfPrice(price);
  const subId = newId("sub");
  const sub: Obj = {
    id: subId,
    object: "subscription",
    customer,
    status: "active",
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    created: start,
    start_date: start,
    metadata: { ...((session.subscription_data as { metadata?: object } | undefined)?.metadata ?? {}) },
    items: list(`/v1/subscription_items?subscription=${subId}`, [
      {
        id: newId("si"),
        object: "subscription_item",
        price,
        quantity: 1,
        current_period_start: start,
        current_period_end: periodEnd(start, billing),
      },
    ]),
    latest_invoice: null,
  };
  const item = subscriptionItem(sub);
  const invoice = await newInvoice(
    db,
    sub,
    Number(price.unit_amount),
    "subscription_create",
    { start, end: item.current_period_end },
    "paid",
  );
  await put(db, { ...sub, latest_invoice: invoice.id });
  const done = await put(db, { ...session, status: "complete", payment_status: "paid", subscription: subId });
  await recordEvent(db, "checkout.session.completed", done);
  await recordEvent(db, "customer.subscription.created", { ...sub, latest_invoice: invoice.id });
  await recordEvent(db, "invoice.paid", invoice);
  return { ok: true };
}

/** Portal stand-in: replace the saved card (same test cards; a declined card changes nothing). */
export async function updateLocalCard(db: Db, customerId: string, cardNumber: string): Promise<CardOutcome> {
  const card = checkTestCard(cardNumber);
  if (!card.ok) return card;
  await savePaymentMethod(db, customerId, cardNumber.replace(/\D/g, "").slice(-4));
  return { ok: true };
}

/** Portal stand-in: the renewal of a subscription fails (what a developer uses to see the failed-payment path). */
export async function failLocalRenewal(db: Db, subscriptionId: string): Promise<boolean> {
  const sub = await get(db, subscriptionId);
  if (!sub) return false;
  const item = subscriptionItem(sub);
  const invoice = await newInvoice(
    db,
    { ...sub, status: "past_due" },
    Number(item.price.unit_amount),
    "subscription_cycle",
    { start: item.current_period_end, end: periodEnd(item.current_period_end, billingOfPrice(item.price)) },
    "open",
  );
  const pastDue = await put(db, { ...sub, status: "past_due", latest_invoice: invoice.id });
  await recordEvent(db, "invoice.payment_failed", invoice);
  await recordEvent(db, "customer.subscription.updated", pastDue);
  return true;
}

// ── The API ──────────────────────────────────────────────────────────────

async function updateSubscription(db: Db, sub: Obj, params: Params): Promise<Response> {
  let next: Obj = { ...sub };
  if (params.metadata && typeof params.metadata === "object")
    next.metadata = { ...(sub.metadata as object), ...(params.metadata as object) };
  if (params.cancel_at_period_end !== undefined) next.cancel_at_period_end = params.cancel_at_period_end === "true";
  const items = params.items as { id?: string; price?: string }[] | undefined;
  let invoice: Obj | null = null;
  if (items?.[0]?.price) {
    const price = priceById(items[0].price);
    if (!price) return stripeError(400, `No such price: '${items[0].price}'`, { param: "items[0][price]" });
    const item = subscriptionItem(sub);
    const oldAmount = Number(item.price.unit_amount);
    const newAmount = Number(price.unit_amount);
    const t = now();
    const total = item.current_period_end - item.current_period_start;
    const unused = Math.max(0, Math.min(1, (item.current_period_end - t) / total));
    const intervalChanged = billingOfPrice(price) !== billingOfPrice(item.price);
    const newItem = intervalChanged
      ? { ...item, price, current_period_start: t, current_period_end: periodEnd(t, billingOfPrice(price)) }
      : { ...item, price };
    next = { ...next, items: { ...(sub.items as object), data: [newItem] } };
    if (params.proration_behavior === "always_invoice") {
      // As Stripe prorates: a credit for the old price's unused time, a charge for the new price's remaining time
      // (or, when the interval changes, its whole new period).
      const lines: ProrationLine[] = [
        {
          amount: -Math.round(oldAmount * unused),
          price: item.price,
          start: t,
          end: item.current_period_end,
          proration: true,
        },
        intervalChanged
          ? { amount: newAmount, price, start: t, end: newItem.current_period_end, proration: false }
          : { amount: Math.round(newAmount * unused), price, start: t, end: item.current_period_end, proration: true },
      ];
      const amount = Math.max(0, lines[0]!.amount + lines[1]!.amount);
      invoice = await newInvoice(
        db,
        next,
        amount,
        "subscription_update",
        { start: t, end: newItem.current_period_end },
        "paid",
        lines,
      );
      next.latest_invoice = invoice.id;
    }
  }
  await put(db, next);
  await recordEvent(db, "customer.subscription.updated", next);
  if (invoice) await recordEvent(db, "invoice.paid", invoice);
  return Response.json(params.expand ? await expand(db, next, params.expand as string[]) : next);
}

async function expand(db: Db, obj: Obj, paths: string[]): Promise<Obj> {
  const out: Obj = { ...obj };
  for (const path of paths) {
    if (path === "latest_invoice" && typeof out.latest_invoice === "string")
      out.latest_invoice = await get(db, out.latest_invoice);
    if (path === "invoice_settings.default_payment_method") {
      const settings = out.invoice_settings as { default_payment_method: string | null } | undefined;
      if (settings?.default_payment_method)
        out.invoice_settings = { default_payment_method: await get(db, settings.default_payment_method) };
    }
  }
  return out;
}

async function createRefund(db: Db, params: Params): Promise<Response> {
  const pi = await get(db, String(params.payment_intent ?? ""));
  if (!pi) return stripeError(404, `No such payment_intent: '${String(params.payment_intent)}'`);
  const charge = await get(db, String(pi.latest_charge));
  if (!charge) return stripeError(400, "This payment has no charge to refund.");
  const left = Number(charge.amount) - Number(charge.amount_refunded);
  const amount = params.amount === undefined ? left : Number(params.amount);
  if (!(amount > 0) || amount > left)
    return stripeError(400, `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount.`, {
      code: "charge_already_refunded",
    });
  const refund: Obj = {
    id: newId("re"),
    object: "refund",
    amount,
    charge: charge.id,
    payment_intent: pi.id,
    currency: "usd",
    reason: params.reason ?? null,
    metadata: params.metadata ?? {},
    status: "succeeded",
    created: now(),
  };
  await put(db, refund);
  const refunded = Number(charge.amount_refunded) + amount;
  const updated = await put(db, { ...charge, amount_refunded: refunded, refunded: refunded >= Number(charge.amount) });
  await recordEvent(db, "charge.refunded", updated);
  return Response.json(refund);
}

/** Answers one SDK request the way Stripe would; unknown calls get Stripe's 404 shape. */
async function answer(db: Db, method: string, url: URL, params: Params): Promise<Response> {
  const path = url.pathname.replace(/\/+$/, "");
  const [, , resource, id, action, expire] = path.split("/");
  const origin = (p: unknown) => {
    try {
      return new URL(String(p)).origin;
    } catch {
      return "http://localhost:8787";
    }
  };
  if (resource === "customers" && method === "POST" && !id) {
    return Response.json(
      await put(db, {
        id: newId("cus"),
        object: "customer",
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        invoice_settings: { default_payment_method: null },
        created: now(),
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
    const line = (params.line_items as { price: string }[] | undefined)?.[0];
    const price = line ? priceById(line.price) : null;
    if (!price) return stripeError(400, "No such price.", { param: "line_items[0][price]" });
    const sessionId = newId("cs_test");
    return Response.json(
      await put(db, {
        id: sessionId,
        object: "checkout.session",
        mode: params.mode,
        customer: params.customer,
        client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {},
        subscription_data: params.subscription_data ?? null,
        price: price.id,
        amount_total: price.unit_amount,
        currency: "usd",
        status: "open",
        payment_status: "unpaid",
        payment_intent: null,
        subscription: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        url: `${origin(params.success_url)}/dev/stripe/checkout/${sessionId}`,
        created: now(),
      }),
    );
  }
  if (resource === "checkout" && id === "sessions" && method === "GET" && !action) {
    const [customer, status] = [url.searchParams.get("customer"), url.searchParams.get("status")];
    const sessions = (await localObjectsOfType<Obj>(db, "checkout.session")).filter(
      (c) => (!customer || c.customer === customer) && (!status || c.status === status),
    );
    return Response.json(list("/v1/checkout/sessions", sessions.reverse()));
  }
  if (resource === "checkout" && id === "sessions" && method === "POST" && action && expire === "expire") {
    const session = await localCheckoutSession(db, action);
    if (!session) return stripeError(404, `No such checkout.session: '${action}'`, { code: "resource_missing" });
    if (session.status !== "open")
      return stripeError(
        400,
        `Only Checkout Sessions with a status of open can be expired (this one is ${String(session.status)}).`,
      );
    return Response.json(await put(db, { ...session, status: "expired", url: null }));
  }
  if (resource === "checkout" && id === "sessions" && method === "GET" && action) {
    const session = await get(db, action);
    return session ? Response.json(session) : stripeError(404, `No such checkout.session: '${action}'`);
  }
  if (resource === "billing_portal" && id === "sessions" && method === "POST") {
    const portalId = newId("bps");
    return Response.json(
      await put(db, {
        id: portalId,
        object: "billing_portal.session",
        customer: params.customer,
        return_url: params.return_url,
        url: `${origin(params.return_url)}/dev/stripe/portal/${portalId}`,
        created: now(),
      }),
    );
  }
  if (resource === "prices" && method === "GET" && id) {
    const price = priceById(id);
    return price ? Response.json(price) : stripeError(404, `No such price: '${id}'`, { code: "resource_missing" });
  }
  if (resource === "refunds" && method === "POST" && !id) return createRefund(db, params);
  if (resource === "refunds" && method === "GET" && !id) {
    const charge = url.searchParams.get("charge");
    const refunds = (await localObjectsOfType<Obj>(db, "refund")).filter((r) => r.charge === charge);
    return Response.json(list("/v1/refunds", refunds.reverse()));
  }
  if (id && method === "GET") {
    const obj = await get(db, id);
    if (!obj) return stripeError(404, `No such ${resource}: '${id}'`, { code: "resource_missing" });
    const paths = [...url.searchParams.entries()].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
    return Response.json(await expand(db, obj, paths));
  }
  if (resource === "subscriptions" && id && method === "DELETE") {
    const sub = await get(db, id);
    if (!sub) return stripeError(404, `No such subscription: '${id}'`, { code: "resource_missing" });
    const ended = await put(db, { ...sub, status: "canceled", canceled_at: now(), ended_at: now() });
    await recordEvent(db, "customer.subscription.deleted", ended);
    return Response.json(ended);
  }
  if (resource === "subscriptions" && id && method === "POST") {
    const sub = await get(db, id);
    if (!sub) return stripeError(404, `No such subscription: '${id}'`, { code: "resource_missing" });
    return updateSubscription(db, sub, params);
  }
  return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
}

/** The fetch the SDK is given in local mode (Stripe.createFetchHttpClient(localStripeFetch(db))). */
export function localStripeFetch(db: Db): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.method === "GET" ? "" : new TextDecoder().decode(await request.arrayBuffer());
    const response = await answer(db, request.method, new URL(request.url), parseStripeForm(body));
    response.headers.set("Request-Id", newId("req"));
    response.headers.set("Stripe-Version", "2026-10-28.endive");
    return response;
  }) as typeof fetch;
}
