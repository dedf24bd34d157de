/**
 * Local only: subscription invoices in the stand-in — made (finalized at once, or a renewal's draft finalized an
 * hour later), the customer's credit balance applied, charged, retried after a decline, paid on their hosted page,
 * voided; their lines embedded ten at a time and paged at `GET /v1/invoices/:id/lines`.
 */
import type Stripe from "stripe";
import { defaultMethod, pay, type Attempt, type PayingMethod } from "./stripe-cards";
import { draftInvoice, invoiceAttempt, invoiceLine, openInvoice, EMBEDDED_LINES } from "./stripe-objects";
import {
  idOf,
  LOCAL_ORIGIN_PLACEHOLDER,
  newId,
  noSuch,
  objectOf,
  pageOf,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";
import { invoicePaid, renewalUnpaid } from "./stripe-subscriptions";

/** A line as the stand-in computes it, before it is an invoice's line with an id. */
export interface Line {
  amount: number;
  description: string;
  price: Stripe.Price;
  period: { start: number; end: number };
  /** A proration line (credit for unused time, or the remaining time on the new price). */
  proration: boolean;
  subscriptionItem: string;
  creditedItems?: { invoice: string; invoice_line_items: string[] } | null;
}

/** Every line of an invoice, kept beside it (Stripe embeds only the first ten). */
interface InvoiceLines extends StripeObject {
  object: "stand_in.invoice_lines";
  lines: Stripe.InvoiceLineItem[];
}
const linesId = (invoiceId: string) => `${invoiceId}:lines`;

export const invoiceOf = (store: StandInStore, id: string | null) => objectOf<Stripe.Invoice>(store, id, "invoice");

export const hostedInvoiceUrl = (id: string) => `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/invoice/${id}`;
export const invoicePdfUrl = (id: string) => `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/invoice/${id}/pdf`;

/** All of an invoice's lines, in order. */
export function allLines(store: StandInStore, invoice: Stripe.Invoice): Stripe.InvoiceLineItem[] {
  return store.get<InvoiceLines>(linesId(invoice.id))?.lines ?? invoice.lines.data;
}

/** Stores an invoice as Stripe holds it: its first ten lines embedded (`has_more` beyond), every line kept apart. */
export function putInvoice(store: StandInStore, invoice: Stripe.Invoice): Stripe.Invoice {
  const lines = invoice.lines.data;
  if (lines.length <= EMBEDDED_LINES) return store.put(invoice);
  store.put<InvoiceLines>({ id: linesId(invoice.id), object: "stand_in.invoice_lines", lines });
  return store.put({
    ...invoice,
    lines: { ...invoice.lines, data: lines.slice(0, EMBEDDED_LINES), has_more: true },
  } satisfies Stripe.Invoice);
}

/** `GET /v1/invoices/:id/lines`: the lines a page at a time (the SDK's `invoices.listLineItems`). */
export function listLines(store: StandInStore, invoiceId: string, search: URLSearchParams): Response {
  const invoice = invoiceOf(store, invoiceId);
  if (!invoice) return noSuch("invoice", invoiceId);
  const page = pageOf(`/v1/invoices/${invoiceId}/lines`, allLines(store, invoice), search);
  return page instanceof Response ? page : Response.json(page);
}

const nextNumber = (store: StandInStore) =>
  `LOCAL-${String(store.ofType("invoice").filter((i) => i.number).length + 1).padStart(4, "0")}`;

/** Applies the customer's balance to an invoice's total (returned as its starting balance) and keeps the rest. */
function takeBalance(store: StandInStore, customerId: string, total: number): number {
  const customer = objectOf<Stripe.Customer>(store, customerId, "customer");
  const starting = customer?.balance ?? 0;
  const ending = Math.min(0, total + starting);
  if (customer && ending !== starting) store.put({ ...customer, balance: ending } satisfies Stripe.Customer);
  return starting;
}

/**
 * A subscription's invoice for `lines`: finalized at once (the customer's balance applied, a number, its hosted page
 * and PDF), or, for a renewal, a draft Stripe finalizes an hour later. Its metadata is the subscription's as it is now.
 */
export function createInvoice(
  store: StandInStore,
  sub: Stripe.Subscription,
  billingReason: Stripe.Invoice.BillingReason,
  lines: Line[],
  draft = false,
): Stripe.Invoice {
  const id = newId("in");
  const t = store.now();
  const customer = String(idOf(sub.customer));
  const base = {
    id,
    customer,
    created: t,
    billingReason,
    subscription: sub.id,
    subscriptionMetadata: { ...sub.metadata },
    testClock: idOf(sub.test_clock),
    automaticTax: sub.automatic_tax.enabled,
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
  };
  if (draft) {
    const created = putInvoice(store, { ...draftInvoice(base), automatically_finalizes_at: t + 3600 });
    store.recordEvent("invoice.created", created);
    return created;
  }
  const total = base.lines.reduce((sum, l) => sum + l.amount, 0);
  const invoice = putInvoice(
    store,
    openInvoice({
      ...base,
      number: nextNumber(store),
      startingBalance: takeBalance(store, customer, total),
      hostedUrl: hostedInvoiceUrl(id),
      pdfUrl: invoicePdfUrl(id),
    }),
  );
  store.recordEvent("invoice.created", invoice);
  store.recordEvent("invoice.finalized", invoice);
  return invoice;
}

/** Tries to pay an open invoice (a $0 one is paid by finalizing it); records the attempt either way. */
export function collect(
  store: StandInStore,
  invoice: Stripe.Invoice,
  onSession: boolean,
  method?: PayingMethod,
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
          method ?? defaultMethod(store, customer),
          onSession,
        );
  const paid = attempt.status === "succeeded";
  store.put({
    ...invoiceAttempt(invoice, {
      at: store.now(),
      paid,
      paymentIntent: attempt.paymentIntent || null,
      paymentId: newId("inpay"),
      hostedUrl: hostedInvoiceUrl(invoice.id),
    }),
    next_payment_attempt: paid ? null : invoice.next_payment_attempt,
  } satisfies Stripe.Invoice);
  return attempt;
}

/** The events of an attempt to pay an invoice; a declined renewal is retried on Stripe's schedule. */
export function attemptEvents(store: StandInStore, invoiceId: string, attempt: Attempt): Stripe.Invoice {
  let invoice = invoiceOf(store, invoiceId)!;
  if (attempt.status === "succeeded") {
    store.recordEvent("invoice.paid", invoice);
    invoicePaid(store, invoice);
    return invoice;
  }
  const renewal = invoice.billing_reason === "subscription_cycle";
  if (renewal && attempt.status === "requires_payment_method")
    invoice = store.put({ ...invoice, next_payment_attempt: nextRetry(invoice) } satisfies Stripe.Invoice);
  // Stripe sends payment_failed for a payment that needs authentication too, and then asks for the action.
  store.recordEvent("invoice.payment_failed", invoice);
  if (attempt.status === "requires_action") store.recordEvent("invoice.payment_action_required", invoice);
  if (renewal) renewalUnpaid(store, invoice);
  return invoice;
}

/** Retries of a declined renewal: 3 and 7 days after it was finalized; after that, none (see the clock's dunning). */
const RETRY_DAYS = [3, 7];
function nextRetry(invoice: Stripe.Invoice): number | null {
  const days = RETRY_DAYS[invoice.attempt_count - 1];
  const from = invoice.status_transitions.finalized_at ?? invoice.created;
  return days === undefined ? null : from + days * 86_400;
}

/** A renewal's draft is finalized an hour after it was made, and charged to the saved payment method. */
export function finalizeDraft(store: StandInStore, invoiceId: string): void {
  const draft = invoiceOf(store, invoiceId);
  if (!draft || draft.status !== "draft") return;
  const t = store.now();
  const customer = String(idOf(draft.customer));
  const lines = allLines(store, draft);
  const open = putInvoice(store, {
    ...openInvoice({
      id: draft.id,
      number: nextNumber(store),
      customer,
      created: draft.created,
      billingReason: draft.billing_reason ?? "subscription_cycle",
      subscription: String(idOf(draft.parent?.subscription_details?.subscription)),
      subscriptionMetadata: draft.parent?.subscription_details?.metadata ?? {},
      lines,
      testClock: idOf(draft.test_clock),
      automaticTax: draft.automatic_tax.enabled,
      startingBalance: takeBalance(store, customer, draft.total),
      hostedUrl: hostedInvoiceUrl(draft.id),
      pdfUrl: invoicePdfUrl(draft.id),
    }),
    status_transitions: { ...draft.status_transitions, finalized_at: t },
    webhooks_delivered_at: t,
  });
  store.recordEvent("invoice.finalized", open);
  attemptEvents(store, open.id, collect(store, open, false));
}

/** A scheduled retry of a declined renewal. */
export function retryInvoice(store: StandInStore, invoiceId: string): void {
  const invoice = invoiceOf(store, invoiceId);
  if (!invoice || invoice.status !== "open") return;
  attemptEvents(store, invoice.id, collect(store, { ...invoice, next_payment_attempt: null }, false));
}

/** Voids an open invoice nobody will pay (an expired pending update's). */
export function voidInvoice(store: StandInStore, invoice: Stripe.Invoice): void {
  if (invoice.status !== "open" && invoice.status !== "draft") return;
  const voided = store.put({
    ...invoice,
    status: "void",
    amount_remaining: 0,
    next_payment_attempt: null,
    status_transitions: { ...invoice.status_transitions, voided_at: store.now() },
  } satisfies Stripe.Invoice);
  store.recordEvent("invoice.voided", voided);
}

/** The hosted invoice page: the customer pays an open invoice on-session (3-D Secure passes, a decline fails). */
export function payInvoice(store: StandInStore, invoiceId: string): { ok: true } | { ok: false; message: string } {
  const invoice = invoiceOf(store, invoiceId);
  if (!invoice || invoice.status !== "open") return { ok: false, message: "This invoice is not open for payment." };
  const attempt = collect(store, invoice, true);
  if (attempt.status !== "succeeded") {
    store.recordEvent("invoice.payment_failed", invoiceOf(store, invoiceId)!);
    return { ok: false, message: "message" in attempt ? attempt.message : "The payment did not go through." };
  }
  attemptEvents(store, invoiceId, attempt);
  return { ok: true };
}

/** `GET /v1/invoices`: newest first, by customer, subscription or status. */
export function listInvoices(store: StandInStore, search: URLSearchParams): Response {
  const [customer, subscription, status] = ["customer", "subscription", "status"].map((k) => search.get(k));
  const invoices = store
    .ofType<Stripe.Invoice>("invoice")
    .filter(
      (i) =>
        (!customer || i.customer === customer) &&
        (!subscription || i.parent?.subscription_details?.subscription === subscription) &&
        (!status || i.status === status),
    )
    .reverse();
  const page = pageOf("/v1/invoices", invoices, search);
  return page instanceof Response ? page : Response.json(page);
}
