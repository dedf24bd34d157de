/**
 * Local only: every object the stand-in answers with, built as the SDK's own type (stripe 23.1.0, API 2026-10-28),
 * so that the compiler rejects an object that lacks a field Stripe always sends or carries one Stripe's object does
 * not have. The stand-in and the test fixtures (tests/fixtures/stripe) build their objects here, and only here.
 */
import type Stripe from "stripe";
import { creditPack, planOfLookupKey, planPeriodPriceCents, type Billing } from "../../app/domain/plans";

/** Stripe's prices are older than any object the stand-in makes. */
const PRICES_CREATED = 1_790_000_000;

export const list = <T>(url: string, data: T[]): Stripe.ApiList<T> => ({ object: "list", url, has_more: false, data });

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

// ── Customers and cards ────────────────────────────────────────────────

export function customerObject(input: {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  metadata: Stripe.Metadata;
}): Stripe.Customer {
  return {
    id: input.id,
    object: "customer",
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

// ── Payments ───────────────────────────────────────────────────────────

export type PaymentOutcome = "succeeded" | "requires_payment_method" | "requires_action";

export function paymentIntentObject(input: {
  id: string;
  customer: string;
  amount: number;
  created: number;
  description: string;
  outcome: PaymentOutcome;
  charge: string | null;
  paymentMethod: string | null;
}): Stripe.PaymentIntent {
  const declined = input.outcome === "requires_payment_method";
  return {
    id: input.id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_received: input.outcome === "succeeded" ? input.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${input.id}_secret_local`,
    confirmation_method: "automatic",
    created: input.created,
    currency: "usd",
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: declined
      ? {
          type: "card_error",
          code: "card_declined",
          decline_code: "generic_decline",
          message: "Your card was declined.",
        }
      : null,
    latest_charge: input.charge,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_action: input.outcome === "requires_action" ? { type: "use_stripe_sdk" } : null,
    on_behalf_of: null,
    payment_method: input.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ["card"],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: input.outcome,
    transfer_group: null,
  };
}

export function chargeObject(input: {
  id: string;
  customer: string;
  amount: number;
  created: number;
  description: string;
  paymentIntent: string;
  paymentMethod: string | null;
  declined: boolean;
}): Stripe.Charge {
  const { declined } = input;
  return {
    id: input.id,
    object: "charge",
    amount: input.amount,
    amount_captured: declined ? 0 : input.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: "CLIPCUT",
    captured: !declined,
    created: input.created,
    currency: "usd",
    customer: input.customer,
    description: input.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: declined ? "card_declined" : null,
    failure_message: declined ? "Your card was declined." : null,
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: null,
    paid: !declined,
    payment_intent: input.paymentIntent,
    payment_method: input.paymentMethod,
    payment_method_details: null,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: declined ? "failed" : "succeeded",
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(input: {
  id: string;
  amount: number;
  charge: string;
  customer: string | null;
  paymentIntent: string;
  created: number;
  reason: Stripe.Refund.Reason | null;
  metadata: Stripe.Metadata;
}): Stripe.Refund {
  return {
    id: input.id,
    object: "refund",
    amount: input.amount,
    balance_transaction: null,
    charge: input.charge,
    created: input.created,
    currency: "usd",
    customer: input.customer,
    customer_account: null,
    metadata: input.metadata,
    payment_intent: input.paymentIntent,
    payment_method: null,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  };
}

// ── Checkout and the portal ─────────────────────────────────────────────

/** A Checkout Session as Stripe answers it (line items only when expanded, so the stand-in keeps them apart). */
export function checkoutSessionObject(input: {
  id: string;
  mode: Stripe.Checkout.Session.Mode;
  customer: string | null;
  amount: number;
  created: number;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
  successUrl: string | null;
  cancelUrl: string | null;
  url: string | null;
}): Stripe.Checkout.Session {
  return {
    id: input.id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: input.amount,
    amount_total: input.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: "usd",
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_account: null,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    discounts: [],
    expires_at: input.created + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.mode === "subscription" ? "always" : null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ["card"],
    payment_status: "unpaid",
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted_page",
    url: input.url,
    wallet_options: null,
  };
}

export function checkoutLineItem(id: string, price: Stripe.Price): Stripe.LineItem {
  const amount = price.unit_amount ?? 0;
  return {
    id,
    object: "item",
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: "usd",
    description: price.lookup_key,
    metadata: {},
    price,
    quantity: 1,
  };
}

export function portalSessionObject(input: {
  id: string;
  customer: string;
  created: number;
  returnUrl: string | null;
  url: string;
}): Stripe.BillingPortal.Session {
  return {
    id: input.id,
    object: "billing_portal.session",
    configuration: "bpc_local",
    created: input.created,
    customer: input.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: input.returnUrl,
    url: input.url,
  };
}

// ── Subscriptions ────────────────────────────────────────────────────────

/** Calendar month / year after `start` (seconds), as Stripe bills. */
export function periodEnd(start: number, billing: Billing): number {
  const d = new Date(start * 1000);
  if (billing === "yearly") d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
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

/** A subscription of one item that starts at `created`, billed automatically, as Checkout creates it. */
export function subscriptionObject(input: {
  id: string;
  customer: string;
  created: number;
  item: Stripe.SubscriptionItem;
  metadata: Stripe.Metadata;
  latestInvoice: string | null;
}): Stripe.Subscription {
  return {
    id: input.id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: input.created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic" },
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
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}

// ── Invoices ─────────────────────────────────────────────────────────────

export interface LineInput {
  id: string;
  invoice: string;
  subscription: string;
  subscriptionItem: string;
  amount: number;
  description: string;
  price: string;
  product: string | null;
  period: { start: number; end: number };
  /** A proration: a credit for unused time, or the remaining time on the new price. */
  proration: boolean;
  /** Proration lines come from invoice items Stripe creates for them. */
  invoiceItem: string | null;
}

export function invoiceLine(line: LineInput): Stripe.InvoiceLineItem {
  return {
    id: line.id,
    object: "line_item",
    amount: line.amount,
    currency: "usd",
    description: line.description,
    discount_amounts: [],
    discountable: !line.proration,
    discounts: [],
    invoice: line.invoice,
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: line.invoiceItem,
        proration: line.proration,
        proration_details: { credited_items: null },
        subscription: line.subscription,
        subscription_item: line.subscriptionItem,
      },
    },
    period: line.period,
    pretax_credit_amounts: [],
    pricing: {
      type: "price_details",
      price_details: { price: line.price, product: line.product ?? "" },
      unit_amount_decimal: null,
    },
    quantity: 1,
    quantity_decimal: null,
    subscription: line.subscription,
    subtotal: line.amount,
    taxes: [],
  };
}

export interface InvoiceInput {
  id: string;
  number: string;
  customer: string;
  created: number;
  billingReason: Stripe.Invoice.BillingReason;
  subscription: string;
  /** The subscription's metadata when the invoice is finalized (before it is paid). */
  subscriptionMetadata: Stripe.Metadata;
  lines: Stripe.InvoiceLineItem[];
}

/** A finalized, still open invoice of a subscription; paying it is the stand-in's `collect`. */
export function openInvoice(input: InvoiceInput): Stripe.Invoice {
  const total = input.lines.reduce((sum, l) => sum + l.amount, 0);
  const due = Math.max(0, total);
  return {
    id: input.id,
    object: "invoice",
    account_country: "US",
    account_name: "ClipCut (local stand-in)",
    account_tax_ids: null,
    amount_due: due,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: due,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: input.billingReason,
    collection_method: "charge_automatically",
    created: input.created,
    currency: "usd",
    custom_fields: null,
    customer: input.customer,
    customer_account: null,
    customer_address: null,
    customer_email: null,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: input.created,
    // A negative total (a downgrade's credit) goes to the customer's balance, as Stripe does.
    ending_balance: Math.min(0, total),
    footer: null,
    from_invoice: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: list(`/v1/invoices/${input.id}/lines`, input.lines),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: input.number,
    on_behalf_of: null,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: { ...input.subscriptionMetadata }, subscription: input.subscription },
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    // Stripe lists the invoice's payments when asked (expand); the stand-in keeps them on the invoice.
    payments: list(`/v1/invoices/${input.id}/payments`, []),
    period_end: input.created,
    period_start: input.created,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: "open",
    status_transitions: { finalized_at: input.created, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: input.created,
  };
}

/**
 * An attempt to pay an open invoice at `at`: a successful one pays it, any other leaves it open with the attempt
 * counted and its hosted page to finish on. A payment intent (none for a $0 invoice) is listed as its payment.
 */
export function invoiceAttempt(
  invoice: Stripe.Invoice,
  input: { at: number; paid: boolean; paymentIntent: string | null; paymentId: string; hostedUrl: string | null },
): Stripe.Invoice {
  const { at, paid } = input;
  const payment: Stripe.InvoicePayment[] = input.paymentIntent
    ? [
        {
          id: input.paymentId,
          object: "invoice_payment",
          amount_paid: paid ? invoice.amount_due : null,
          amount_requested: invoice.amount_due,
          created: at,
          currency: "usd",
          invoice: invoice.id,
          is_default: true,
          livemode: false,
          payment: { type: "payment_intent", payment_intent: input.paymentIntent },
          status: paid ? "paid" : "open",
          status_transitions: { canceled_at: null, paid_at: paid ? at : null },
        },
      ]
    : [];
  const before = invoice.payments ?? list(`/v1/invoices/${invoice.id}/payments`, []);
  return {
    ...invoice,
    amount_paid: paid ? invoice.amount_due : 0,
    amount_remaining: paid ? 0 : invoice.amount_due,
    attempt_count: invoice.attempt_count + 1,
    attempted: true,
    hosted_invoice_url: paid ? null : input.hostedUrl,
    payments: { ...before, data: [...payment, ...before.data] },
    status: paid ? "paid" : "open",
    status_transitions: { ...invoice.status_transitions, paid_at: paid ? at : null },
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
