/**
 * Local only: invoices, their lines and payment attempts as the SDK's own types (stripe 23.1.0, API 2026-10-28).
 * Re-exported by stripe-objects.ts with the rest.
 */
import type Stripe from "stripe";
import { list } from "./stripe-objects-core";

// ── Invoices ─────────────────────────────────────────────────────────────

/** Stripe embeds at most this many lines in an invoice; the rest are read from `GET /v1/invoices/:id/lines`. */
export const EMBEDDED_LINES = 10;

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
  /** A credit proration of a flexible subscription names the paid lines whose time it gives back. */
  creditedItems?: { invoice: string; invoice_line_items: string[] } | null;
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
        proration_details: { credited_items: line.creditedItems ?? null },
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
  /** Every line; the invoice embeds the first ten, as Stripe does. */
  lines: Stripe.InvoiceLineItem[];
  testClock?: string | null;
  /** The customer's balance applied when it was finalized: negative is credit the customer holds. */
  startingBalance?: number;
  automaticTax?: boolean;
  /** Its hosted page and PDF, kept from finalization on. */
  hostedUrl?: string | null;
  pdfUrl?: string | null;
}

/** A finalized, still open invoice of a subscription; paying it is the stand-in's `collect`. */
export function openInvoice(input: InvoiceInput): Stripe.Invoice {
  const total = input.lines.reduce((sum, l) => sum + l.amount, 0);
  const starting = input.startingBalance ?? 0;
  const due = Math.max(0, total + starting);
  const tax = input.automaticTax === true;
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
    automatic_tax: {
      disabled_reason: null,
      enabled: tax,
      liability: tax ? { type: "self" } : null,
      provider: tax ? "stripe" : null,
      status: tax ? "complete" : null,
    },
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
    // Credit left over (a downgrade's, a switch back's) stays on the customer's balance for the next invoice.
    ending_balance: Math.min(0, total + starting),
    footer: null,
    from_invoice: null,
    hosted_invoice_url: input.hostedUrl ?? null,
    invoice_pdf: input.pdfUrl ?? null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: list(
      `/v1/invoices/${input.id}/lines`,
      input.lines.slice(0, EMBEDDED_LINES),
      input.lines.length > EMBEDDED_LINES,
    ),
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
    starting_balance: starting,
    statement_descriptor: null,
    status: "open",
    status_transitions: { finalized_at: input.created, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: input.testClock ?? null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: input.created,
  };
}

/**
 * A renewal invoice as Stripe first makes it: a draft (no number, no hosted page, no balance applied yet) that it
 * finalizes and charges about an hour later.
 */
export function draftInvoice(input: Omit<InvoiceInput, "number" | "startingBalance" | "hostedUrl" | "pdfUrl">) {
  const open = openInvoice({ ...input, number: "" });
  return {
    ...open,
    ending_balance: null,
    number: null,
    status: "draft",
    status_transitions: { ...open.status_transitions, finalized_at: null },
    webhooks_delivered_at: null,
  } satisfies Stripe.Invoice;
}

/**
 * An attempt to pay an open invoice at `at`: a successful one pays it, any other leaves it open with the attempt
 * counted. Its hosted page and PDF stay either way. A payment intent (none for a $0 invoice) is listed as its payment.
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
    hosted_invoice_url: invoice.hosted_invoice_url ?? input.hostedUrl,
    // Earlier attempts on the same intent are the same payment.
    payments: {
      ...before,
      data: [...payment, ...before.data.filter((p) => p.payment.payment_intent !== input.paymentIntent)],
    },
    status: paid ? "paid" : "open",
    status_transitions: { ...invoice.status_transitions, paid_at: paid ? at : null },
  };
}
