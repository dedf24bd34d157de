/**
 * Local only: the stand-in's invoices built as the SDK's own types (stripe 23.1.0), so the compiler rejects an
 * invoice or invoice line that lacks a field Stripe always sends. ClipCut's credit rules read these objects.
 */
import type Stripe from "stripe";

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
    lines: { object: "list", data: input.lines, has_more: false, url: `/v1/invoices/${input.id}/lines` },
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
