/**
 * Local only: the stand-in's basic objects as the SDK's own types (stripe 23.1.0, API 2026-10-28): lists, prices,
 * customers, payment methods, test clocks and event envelopes. Re-exported by stripe-objects.ts with the rest.
 */
import type Stripe from "stripe";
import { creditPack, planOfLookupKey, planPeriodPriceCents, type Billing } from "../../app/domain/plans";

/** Stripe's prices are older than any object the stand-in makes. */
const PRICES_CREATED = 1_790_000_000;

export const list = <T>(url: string, data: T[], hasMore = false): Stripe.ApiList<T> => ({
  object: "list",
  url,
  has_more: hasMore,
  data,
});

// ── Prices (built from app/domain/plans.ts, as a deploy creates them: docs/payments.md) ────────

export function priceObject(lookupKey: string): Stripe.Price | null {
  const plan = planOfLookupKey(lookupKey);
  const pack = plan ? null : creditPack(lookupKey);
  if (!plan && !pack) return null;
  const amount = plan ? planPeriodPriceCents(plan.plan, plan.billing) : (pack?.priceCents ?? 0);
  return {
    id: `price_${lookupKey}`,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: PRICES_CREATED,
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
          trial_period_days: null,
          usage_type: "licensed",
        }
      : null,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: plan ? "recurring" : "one_time",
    unit_amount: amount,
    unit_amount_decimal: null,
  };
}

export const billingOfPrice = (price: Stripe.Price): Billing =>
  price.recurring?.interval === "year" ? "yearly" : "monthly";

// ── Customers and payment methods ──────────────────────────────────────────

export function customerObject(input: {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  metadata: Stripe.Metadata;
  /** The test clock the customer lives on (the stand-in gives every customer it creates one). */
  testClock?: string | null;
}): Stripe.Customer {
  return {
    id: input.id,
    object: "customer",
    address: null,
    balance: 0,
    created: input.created,
    default_source: null,
    description: null,
    email: input.email,
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    shipping: null,
    test_clock: input.testClock ?? null,
  };
}

export function cardPaymentMethod(input: {
  id: string;
  customer: string;
  created: number;
  last4: string;
  /** Not Stripe's: how this test card behaves on later charges (Stripe knows it from the card number). */
  behaviour: string;
}): Stripe.PaymentMethod {
  return {
    id: input.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: "visa",
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: "visa",
      exp_month: 12,
      exp_year: new Date(input.created * 1000).getUTCFullYear() + 3,
      funding: "credit",
      generated_from: null,
      last4: input.last4,
      networks: { available: ["visa"], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: input.created,
    customer: input.customer,
    customer_account: null,
    livemode: false,
    metadata: { behaviour: input.behaviour },
    type: "card",
  };
}

/** A US bank account debited by ACH (a delayed method: its payments are `processing` until the bank answers). */
export function usBankAccountPaymentMethod(input: {
  id: string;
  customer: string;
  created: number;
  last4: string;
  routingNumber: string;
  behaviour: string;
}): Stripe.PaymentMethod {
  return {
    id: input.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: "Test Account Holder", phone: null, tax_id: null },
    created: input.created,
    customer: input.customer,
    customer_account: null,
    livemode: false,
    metadata: { behaviour: input.behaviour },
    type: "us_bank_account",
    us_bank_account: {
      account_holder_type: "individual",
      account_type: "checking",
      bank_name: "STRIPE TEST BANK",
      financial_connections_account: null,
      fingerprint: null,
      last4: input.last4,
      networks: { preferred: "ach", supported: ["ach"] },
      routing_number: input.routingNumber,
      status_details: null,
    },
  };
}

// ── Test clocks ─────────────────────────────────────────────────────────

/** Stripe deletes a test clock (and its objects) 30 days after creating it; the stand-in keeps them. */
const CLOCK_LIFETIME_SECONDS = 30 * 86_400;

export function testClockObject(input: {
  id: string;
  created: number;
  frozenTime: number;
  name: string | null;
}): Stripe.TestHelpers.TestClock {
  return {
    id: input.id,
    object: "test_helpers.test_clock",
    created: input.created,
    deletes_after: input.created + CLOCK_LIFETIME_SECONDS,
    frozen_time: input.frozenTime,
    livemode: false,
    name: input.name,
    status: "ready",
    status_details: {},
  };
}

// ── Events ─────────────────────────────────────────────────────────────

/** An event envelope as Stripe posts it to a webhook endpoint. */
export function eventObject(input: {
  id: string;
  type: Stripe.Event.Type;
  created: number;
  object: Stripe.Event.Data.Object;
  apiVersion: string;
}): Stripe.EventBase {
  return {
    id: input.id,
    object: "event",
    api_version: input.apiVersion,
    created: input.created,
    data: { object: input.object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: input.type,
  };
}
