/**
 * Local only: subscriptions, their items and their schedules as the SDK's own types (stripe 23.1.0, API 2026-10-28),
 * and the calendar Stripe bills them on. Re-exported by stripe-objects.ts with the rest.
 */
import type Stripe from "stripe";
import type { Billing } from "../../app/domain/plans";
import { list } from "./stripe-objects-core";

// ── The billing calendar ───────────────────────────────────────────────

/**
 * `n` months or years after `anchor` (seconds), as Stripe bills: the same day and time of day, a short month's last
 * day when the anchor's day is not in it (an anchor on the 31st renews on 28 or 29 February, then on 31 March).
 */
export function addIntervals(anchor: number, billing: Billing, n: number): number {
  const a = new Date(anchor * 1000);
  const months = a.getUTCMonth() + (billing === "yearly" ? 12 * n : n);
  const year = a.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(a.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds()) / 1000;
}

/** The end of the period that starts at `start` on a cycle anchored there. */
export const periodEnd = (start: number, billing: Billing): number => addIntervals(start, billing, 1);

/** The end of the billing period after `at`, on a cycle anchored at `anchor`. */
export function nextPeriodEnd(anchor: number, billing: Billing, at: number): number {
  let n = 1;
  while (addIntervals(anchor, billing, n) <= at) n += 1;
  return addIntervals(anchor, billing, n);
}

// ── Subscriptions ────────────────────────────────────────────────────────

/** The legacy Plan Stripe still puts on every subscription item, mirroring its recurring price. */
function planOfPrice(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? "month",
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

export function subscriptionItemObject(input: {
  id: string;
  subscription: string;
  price: Stripe.Price;
  created: number;
  periodStart: number;
  periodEnd: number;
}): Stripe.SubscriptionItem {
  return {
    id: input.id,
    object: "subscription_item",
    billing_thresholds: null,
    created: input.created,
    current_period_end: input.periodEnd,
    current_period_start: input.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOfPrice(input.price),
    price: input.price,
    quantity: 1,
    subscription: input.subscription,
    tax_rates: [],
  };
}

/** How Stripe computes a subscription's prorations: `flexible` is the default at API 2026-10-28. */
export type BillingModeType = "flexible" | "classic";

export function billingMode(type: BillingModeType, at: number): Stripe.Subscription.BillingMode {
  return type === "flexible"
    ? { type, flexible: { proration_discounts: "included" }, updated_at: at }
    : { type, flexible: null };
}

/** A subscription of one item that starts at `created`, billed automatically, as Checkout creates it. */
export function subscriptionObject(input: {
  id: string;
  customer: string;
  created: number;
  item: Stripe.SubscriptionItem;
  metadata: Stripe.Metadata;
  latestInvoice: string | null;
  /** `flexible` unless told (our API version's default for subscriptions made by Checkout). */
  billingMode?: BillingModeType;
  testClock?: string | null;
  automaticTax?: boolean;
}): Stripe.Subscription {
  const tax = input.automaticTax === true;
  return {
    id: input.id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: tax, liability: tax ? { type: "self" } : null },
    billing_cycle_anchor: input.created,
    billing_cycle_anchor_config: null,
    billing_mode: billingMode(input.billingMode ?? "flexible", input.created),
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: "charge_automatically",
    created: input.created,
    currency: "usd",
    customer: input.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: "self" },
    },
    items: list(`/v1/subscription_items?subscription=${input.id}`, [input.item]),
    latest_invoice: input.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.created,
    status: "active",
    test_clock: input.testClock ?? null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}

// ── Subscription schedules ──────────────────────────────────────────────

/** One phase of a subscription schedule: one item of `price` from `start` to `end`. */
export function schedulePhaseObject(input: {
  price: Stripe.Price;
  quantity: number;
  start: number;
  end: number;
  proration: Stripe.SubscriptionSchedule.Phase.ProrationBehavior;
}): Stripe.SubscriptionSchedule.Phase {
  return {
    add_invoice_items: [],
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency: "usd",
    default_payment_method: null,
    description: null,
    discounts: [],
    end_date: input.end,
    invoice_settings: null,
    items: [
      {
        billing_thresholds: null,
        discounts: [],
        metadata: {},
        plan: input.price.id,
        price: input.price.id,
        quantity: input.quantity,
      },
    ],
    metadata: {},
    on_behalf_of: null,
    proration_behavior: input.proration,
    start_date: input.start,
    transfer_data: null,
    trial_end: null,
  };
}

/** A schedule made from a running subscription, its current period as the one phase (`from_subscription`). */
export function subscriptionScheduleObject(input: {
  id: string;
  created: number;
  subscription: Stripe.Subscription;
  phase: Stripe.SubscriptionSchedule.Phase;
}): Stripe.SubscriptionSchedule {
  const { subscription: sub, phase } = input;
  return {
    id: input.id,
    object: "subscription_schedule",
    application: null,
    billing_mode: sub.billing_mode,
    canceled_at: null,
    completed_at: null,
    created: input.created,
    current_phase: { start_date: phase.start_date, end_date: phase.end_date },
    customer: sub.customer,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      billing_cycle_anchor: "automatic",
      billing_thresholds: null,
      collection_method: "charge_automatically",
      default_payment_method: null,
      description: null,
      invoice_settings: {
        account_tax_ids: null,
        custom_fields: null,
        days_until_due: null,
        description: null,
        footer: null,
        issuer: { type: "self" },
      },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: "release",
    livemode: false,
    metadata: {},
    pause_schedules: [],
    phases: [phase],
    released_at: null,
    released_subscription: null,
    status: "active",
    subscription: sub.id,
    test_clock: sub.test_clock,
  };
}
