/**
 * Local only: subscriptions in the stand-in — made by Checkout (billing mode flexible, our API version's default),
 * changed (flexible proration: a credit gives back what the paid line it names was paid for the unused time; an
 * interval switch restarts the cycle and invoices at once), pending updates, renewals at the period end, ends
 * (cancel at period end, cancel now, dunning), and what a paid invoice does to its subscription.
 */
import type Stripe from "stripe";
import { clockIdOfCustomer } from "./stripe-clock";
import type { PayingMethod } from "./stripe-cards";
import { attemptEvents, collect, createInvoice, invoiceOf, voidInvoice } from "./stripe-invoices";
import {
  billingOfPrice,
  nextPeriodEnd,
  periodEnd,
  subscriptionItemObject,
  subscriptionObject,
  type BillingModeType,
} from "./stripe-objects";
import { prorationLines, wholePeriod } from "./stripe-prorations";
import { activeScheduleOf, subscriptionEnded } from "./stripe-schedules";
import {
  cleanMetadata,
  idOf,
  newId,
  objectOf,
  priceById,
  stringRecord,
  stripeError,
  type Params,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";

/** Stripe keeps a pending update this long before it expires (docs.stripe.com/billing/subscriptions/pending-updates). */
export const PENDING_UPDATE_SECONDS = 23 * 3600;

const RUNNING = ["active", "trialing", "past_due"];

export const subscriptionOf = (store: StandInStore, id: string | null) =>
  objectOf<Stripe.Subscription>(store, id, "subscription");

const itemOf = (sub: Stripe.Subscription) => sub.items.data[0]!;

/** Checkout made a subscription and charged its first invoice on-session (the customer is there). */
export function subscribe(
  store: StandInStore,
  input: {
    customer: string;
    price: Stripe.Price;
    metadata: Stripe.Metadata;
    billingMode: BillingModeType;
    automaticTax: boolean;
    method: PayingMethod;
  },
) {
  const start = store.now();
  const id = newId("sub");
  const item = subscriptionItemObject({
    id: newId("si"),
    subscription: id,
    price: input.price,
    created: start,
    periodStart: start,
    periodEnd: periodEnd(start, billingOfPrice(input.price)),
  });
  const sub = subscriptionObject({
    id,
    customer: input.customer,
    created: start,
    item,
    metadata: { ...input.metadata },
    latestInvoice: null,
    billingMode: input.billingMode,
    testClock: clockIdOfCustomer(store, input.customer),
    automaticTax: input.automaticTax,
  });
  const invoice = createInvoice(store, sub, "subscription_create", [wholePeriod(item.id, input.price, start, item)]);
  const attempt = collect(store, invoice, true, input.method);
  const active = store.put({ ...sub, latest_invoice: invoice.id } satisfies Stripe.Subscription);
  return { subscription: active, invoice: invoiceOf(store, invoice.id)!, attempt };
}

// ── Changes ───────────────────────────────────────────────────────────────

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

export type Expand = (obj: StripeObject) => StripeObject;

export function updateSubscription(
  store: StandInStore,
  current: Stripe.Subscription,
  params: Params,
  expand: Expand,
): Response {
  const sub = expirePendingUpdate(store, current);
  if (!RUNNING.includes(sub.status) && sub.status !== "incomplete")
    return stripeError(400, `This subscription is ${sub.status}: it cannot be updated.`);
  // A schedule manages the subscription: its ending and its prices are the schedule's to change.
  const schedule = activeScheduleOf(store, sub);
  if (schedule && params.cancel_at_period_end !== undefined)
    return stripeError(
      400,
      `The subscription is managed by the subscription schedule \`${schedule.id}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
    );
  if (schedule && params.items !== undefined)
    return stripeError(
      400,
      `The local stand-in does not change the items of a subscription managed by the subscription schedule \`${schedule.id}\`: release it first.`,
    );
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
  const t = store.now();
  const metadata = stringRecord(params.metadata);
  const cancelAtPeriodEnd = params.cancel_at_period_end === undefined ? null : params.cancel_at_period_end === "true";
  const items = params.items as { id?: string; price?: string }[] | undefined;
  const priceChange = items?.[0]?.price ? priceById(items[0].price) : null;
  if (items?.[0]?.price && !priceChange)
    return stripeError(400, `No such price: '${items[0].price}'`, { param: "items[0][price]" });
  const proration = String(params.proration_behavior ?? "create_prorations");
  const item = itemOf(sub);
  const intervalChanged = priceChange !== null && billingOfPrice(priceChange) !== billingOfPrice(item.price);
  if (priceChange && !intervalChanged && proration === "create_prorations")
    return stripeError(
      400,
      "The local stand-in does not keep prorations for the next invoice: pass proration_behavior always_invoice or none.",
      { param: "proration_behavior" },
    );

  // Changes that cost nothing apply at once.
  const periodEndNow = item.current_period_end;
  const cancel = cancelAtPeriodEnd ?? sub.cancel_at_period_end;
  let next: Stripe.Subscription = {
    ...sub,
    metadata: metadata ? cleanMetadata({ ...sub.metadata, ...metadata }) : sub.metadata,
    cancel_at_period_end: cancel,
    ...(cancelAtPeriodEnd === null ? {} : { cancel_at: cancel ? periodEndNow : null, canceled_at: cancel ? t : null }),
  };
  let invoice: Stripe.Invoice | null = null;
  let attempt: ReturnType<typeof collect> | null = null;
  if (priceChange) {
    const newItem = subscriptionItemObject({
      id: item.id,
      subscription: sub.id,
      price: priceChange,
      created: item.created,
      periodStart: intervalChanged ? t : item.current_period_start,
      periodEnd: intervalChanged ? periodEnd(t, billingOfPrice(priceChange)) : item.current_period_end,
    });
    // An interval switch restarts the cycle now and invoices at once, whatever the proration behaviour.
    const invoiceNow = intervalChanged || proration === "always_invoice";
    const lines = invoiceNow ? prorationLines(store, sub, newItem, t, intervalChanged, proration !== "none") : [];
    if (lines.length > 0) {
      invoice = createInvoice(store, sub, "subscription_update", lines);
      attempt = collect(store, invoice, false);
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
        attemptEvents(store, invoice.id, attempt);
        store.recordEvent("customer.subscription.updated", waiting);
        return Response.json(expand(waiting));
      }
      next = { ...next, latest_invoice: invoice.id, status: attempt.status === "succeeded" ? next.status : "past_due" };
    }
    next = {
      ...next,
      items: { ...sub.items, data: [newItem] },
      ...(intervalChanged ? { billing_cycle_anchor: t } : {}),
      ...(intervalChanged && next.cancel_at ? { cancel_at: newItem.current_period_end } : {}),
    };
  }
  store.put(next);
  store.recordEvent("customer.subscription.updated", next);
  if (invoice && attempt) attemptEvents(store, invoice.id, attempt);
  return Response.json(expand(subscriptionOf(store, next.id) ?? next));
}

export function applyPendingUpdate(
  store: StandInStore,
  sub: Stripe.Subscription,
  pending: Stripe.Subscription.PendingUpdate,
): Stripe.Subscription {
  const applied = store.put({
    ...sub,
    items: { ...sub.items, data: pending.subscription_items ?? sub.items.data },
    metadata: cleanMetadata({ ...sub.metadata, ...(pending.metadata ?? {}) }),
    cancel_at_period_end: pending.cancel_at_period_end ?? sub.cancel_at_period_end,
    billing_cycle_anchor: pending.billing_cycle_anchor ?? sub.billing_cycle_anchor,
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
  const invoice = invoiceOf(store, idOf(sub.latest_invoice));
  if (invoice) voidInvoice(store, invoice);
  const expired = store.put({ ...sub, pending_update: null } satisfies Stripe.Subscription);
  store.recordEvent("customer.subscription.pending_update_expired", expired);
  store.recordEvent("customer.subscription.updated", expired);
  return expired;
}

/** What a paid invoice does to its subscription: applies the update it was for, or ends past due. */
export function invoicePaid(store: StandInStore, invoice: Stripe.Invoice): void {
  const sub = subscriptionOf(store, idOf(invoice.parent?.subscription_details?.subscription));
  if (!sub || idOf(sub.latest_invoice) !== invoice.id) return;
  if (sub.pending_update) applyPendingUpdate(store, sub, sub.pending_update);
  else if (sub.status === "past_due") {
    const active = store.put({ ...sub, status: "active" } satisfies Stripe.Subscription);
    store.recordEvent("customer.subscription.updated", active);
  }
}

/** A renewal's payment failed or waits for the customer: the subscription is past due. */
export function renewalUnpaid(store: StandInStore, invoice: Stripe.Invoice): void {
  const sub = subscriptionOf(store, idOf(invoice.parent?.subscription_details?.subscription));
  if (!sub || sub.status !== "active" || idOf(sub.latest_invoice) !== invoice.id) return;
  const pastDue = store.put({ ...sub, status: "past_due" } satisfies Stripe.Subscription);
  store.recordEvent("customer.subscription.updated", pastDue);
}

// ── Ends and renewals ──────────────────────────────────────────────────────

function end(
  store: StandInStore,
  sub: Stripe.Subscription,
  at: number,
  reason: "cancellation_requested" | "payment_failed",
) {
  const ended = store.put({
    ...sub,
    status: "canceled",
    cancel_at_period_end: reason === "cancellation_requested" ? sub.cancel_at_period_end : false,
    canceled_at: sub.canceled_at ?? at,
    ended_at: at,
    pending_update: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason },
  } satisfies Stripe.Subscription);
  subscriptionEnded(store, ended);
  store.recordEvent("customer.subscription.deleted", ended);
  return ended;
}

/** `DELETE /v1/subscriptions/:id`: cancelled at once (no invoice_now / prorate asked). */
export function cancelNow(store: StandInStore, sub: Stripe.Subscription): Stripe.Subscription {
  if (sub.status === "canceled") return sub;
  return end(store, { ...sub, cancel_at_period_end: false, canceled_at: null }, store.now(), "cancellation_requested");
}

/**
 * A period ends: a subscription set to cancel at period end ends; any other running one renews — its items move to
 * the next period and a `subscription_cycle` invoice for it is drafted (finalized and charged an hour later).
 */
export function periodEndReached(store: StandInStore, subId: string): void {
  const sub = subscriptionOf(store, subId);
  if (!sub || !RUNNING.includes(sub.status)) return;
  const item = itemOf(sub);
  const at = item.current_period_end;
  if (sub.cancel_at_period_end) {
    end(store, sub, at, "cancellation_requested");
    return;
  }
  const renewed = {
    ...item,
    current_period_start: at,
    current_period_end: nextPeriodEnd(sub.billing_cycle_anchor, billingOfPrice(item.price), at),
  };
  const moved: Stripe.Subscription = { ...sub, items: { ...sub.items, data: [renewed] } };
  const draft = createInvoice(
    store,
    moved,
    "subscription_cycle",
    [wholePeriod(item.id, item.price, at, renewed)],
    true,
  );
  const updated = store.put({ ...moved, latest_invoice: draft.id } satisfies Stripe.Subscription);
  store.recordEvent("customer.subscription.updated", updated);
}

/** The last retry of a renewal failed long enough ago: Stripe cancels the subscription (its default setting). */
export function endDunning(store: StandInStore, subId: string): void {
  const sub = subscriptionOf(store, subId);
  if (sub?.status === "past_due") end(store, sub, store.now(), "payment_failed");
}
