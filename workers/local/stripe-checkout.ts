/**
 * Local only: Checkout Sessions in the stand-in — created (with what a merchant switches on: automatic tax, address
 * collection, saving the address on the customer), listed, expired (by the API or at `expires_at` on the clock),
 * completed on the stand-in's checkout page by a test card (a subscription, or a pack paid at once) or by a test
 * ACH bank debit (a pack completed unpaid, whose payment succeeds or fails when the clock moves on).
 */
import type Stripe from "stripe";
import { pay, savePaymentMethod, settleDebit, testBankAccount, testCard } from "./stripe-cards";
import { clockIdOfCustomer, schedule } from "./stripe-clock";
import {
  checkoutCustomerDetails,
  checkoutLineItem,
  checkoutSessionObject,
  CHECKOUT_SESSION_SECONDS,
} from "./stripe-objects";
import {
  LOCAL_ORIGIN_PLACEHOLDER,
  newId,
  noSuch,
  objectOf,
  pageOf,
  paramsOf,
  priceById,
  stringRecord,
  stripeError,
  text,
  type Params,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";
import { subscribe } from "./stripe-subscriptions";
import { attemptEvents } from "./stripe-invoices";
import type { BillingModeType } from "./stripe-objects";

/**
 * What the stand-in keeps beside a Checkout Session: its line items (Stripe answers them only when expanded or
 * listed), and what Stripe keeps for the subscription it creates and the customer it updates. None is a field of
 * the session object.
 */
interface SessionExtras extends StripeObject {
  object: "stand_in.session_extras";
  line_items: Stripe.LineItem[];
  subscription_metadata: Stripe.Metadata;
  billing_mode?: BillingModeType;
  save_address?: boolean;
}
const extrasId = (sessionId: string) => `${sessionId}:extras`;
const extrasOf = (store: StandInStore, sessionId: string) => store.get<SessionExtras>(extrasId(sessionId));

export const checkoutSession = (store: StandInStore, id: string | null) =>
  objectOf<Stripe.Checkout.Session>(store, id, "checkout.session");

/** The price a Checkout Session sells. */
export function checkoutPrice(store: StandInStore, sessionId: string): Stripe.Price | null {
  return extrasOf(store, sessionId)?.line_items[0]?.price ?? null;
}

export function lineItemsOf(store: StandInStore, sessionId: string): Stripe.LineItem[] {
  return extrasOf(store, sessionId)?.line_items ?? [];
}

/** Does the checkout page ask for a billing address (required, or needed for automatic tax)? */
export const needsAddress = (session: Stripe.Checkout.Session) =>
  session.billing_address_collection === "required" || session.automatic_tax.enabled;

export function createSession(store: StandInStore, params: Params): Response {
  const line = (params.line_items as { price: string; quantity?: string }[] | undefined)?.[0];
  const price = line ? priceById(line.price) : null;
  if (!price) return stripeError(400, "No such price.", { param: "line_items[0][price]" });
  const mode = params.mode === "subscription" || params.mode === "payment" ? params.mode : null;
  if (!mode) return stripeError(400, "Invalid mode: must be one of payment, setup or subscription.", { param: "mode" });
  const customerId = text(params.customer);
  const customer = objectOf<Stripe.Customer>(store, customerId, "customer");
  if (customerId && !customer) return noSuch("customer", customerId);
  const update = paramsOf(params.customer_update);
  if (Object.keys(update).length > 0 && !customer)
    return stripeError(400, "customer_update can only be used with customer.", { param: "customer_update" });
  const automaticTax = paramsOf(params.automatic_tax).enabled === "true";
  if (automaticTax && customer && !customer.address && update.address !== "auto" && update.shipping !== "auto")
    return stripeError(
      400,
      "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or `customer_update[shipping]` to 'auto' to save the address entered in Checkout to the Customer.",
      { param: "automatic_tax[enabled]" },
    );
  const collection = params.billing_address_collection;
  if (collection !== undefined && collection !== "auto" && collection !== "required")
    return stripeError(400, "Invalid billing_address_collection: must be one of auto or required.", {
      param: "billing_address_collection",
    });
  const subscriptionData = paramsOf(params.subscription_data);
  const modeType = paramsOf(subscriptionData.billing_mode).type;
  const t = store.now();
  const expiresAt = params.expires_at === undefined ? t + CHECKOUT_SESSION_SECONDS : Number(params.expires_at);
  if (!Number.isInteger(expiresAt) || expiresAt < t + 1800 || expiresAt > t + CHECKOUT_SESSION_SECONDS)
    return stripeError(400, "expires_at must be between 30 minutes and 24 hours after the session is created.", {
      param: "expires_at",
    });
  const sessionId = newId("cs_test");
  store.put<SessionExtras>({
    id: extrasId(sessionId),
    object: "stand_in.session_extras",
    line_items: [checkoutLineItem(newId("li"), price)],
    subscription_metadata: stringRecord(subscriptionData.metadata) ?? {},
    billing_mode: modeType === "classic" ? "classic" : "flexible",
    save_address: update.address === "auto",
  });
  const session = checkoutSessionObject({
    id: sessionId,
    mode,
    customer: customerId,
    amount: price.unit_amount ?? 0,
    created: t,
    clientReferenceId: text(params.client_reference_id),
    metadata: stringRecord(params.metadata) ?? {},
    successUrl: text(params.success_url),
    cancelUrl: text(params.cancel_url),
    url: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/checkout/${sessionId}`,
    automaticTax,
    billingAddressCollection: collection ?? null,
    expiresAt,
  });
  const known = customer?.address ? "complete" : "requires_location_inputs";
  return Response.json(
    store.put(automaticTax ? { ...session, automatic_tax: { ...session.automatic_tax, status: known } } : session),
  );
}

export function listSessions(store: StandInStore, search: URLSearchParams): Response {
  const [customer, status] = [search.get("customer"), search.get("status")];
  const sessions = store
    .ofType<Stripe.Checkout.Session>("checkout.session")
    .filter((c) => (!customer || c.customer === customer) && (!status || c.status === status))
    .reverse();
  const page = pageOf("/v1/checkout/sessions", sessions, search);
  return page instanceof Response ? page : Response.json(page);
}

export function listSessionLineItems(store: StandInStore, sessionId: string, search: URLSearchParams): Response {
  if (!checkoutSession(store, sessionId)) return noSuch("checkout.session", sessionId);
  const page = pageOf(`/v1/checkout/sessions/${sessionId}/line_items`, lineItemsOf(store, sessionId), search);
  return page instanceof Response ? page : Response.json(page);
}

/** Expires an open session (by the API, or at its `expires_at`), as Stripe does, with `checkout.session.expired`. */
export function expireSession(store: StandInStore, sessionId: string): Stripe.Checkout.Session | null {
  const session = checkoutSession(store, sessionId);
  if (session?.status !== "open") return null;
  const expired = store.put({ ...session, status: "expired", url: null } satisfies Stripe.Checkout.Session);
  store.recordEvent("checkout.session.expired", expired);
  return expired;
}

export function expireSessionApi(store: StandInStore, sessionId: string): Response {
  const session = checkoutSession(store, sessionId);
  if (!session) return noSuch("checkout.session", sessionId);
  if (session.status !== "open")
    return stripeError(
      400,
      `Only Checkout Sessions with a status of open can be expired (this one is ${String(session.status)}).`,
    );
  return Response.json(expireSession(store, sessionId));
}

// ── The customer on the checkout page ────────────────────────────────────────

export type PageOutcome = { ok: true } | { ok: false; message: string };

/** What the customer enters on the checkout page. */
export interface CheckoutEntry {
  /** A test card number, or a test US bank account for an ACH Direct Debit (packs only). */
  cardNumber?: string;
  bankAccount?: { routingNumber: string; accountNumber: string };
  /** The billing address, when the page asked for one (a test address is used when none is given). */
  address?: { country: string; postalCode: string } | null;
}

/** The customer paid on the stand-in checkout (they are present: 3-D Secure passes). */
export function completeCheckout(store: StandInStore, sessionId: string, entry: CheckoutEntry): PageOutcome {
  const session = checkoutSession(store, sessionId);
  if (!session || session.status !== "open") return { ok: false, message: "This checkout is no longer open." };
  if (entry.bankAccount && session.mode !== "payment")
    return { ok: false, message: "The stand-in takes a bank debit for one-time purchases only." };
  const method = entry.bankAccount
    ? testBankAccount(entry.bankAccount.routingNumber, entry.bankAccount.accountNumber)
    : testCard(entry.cardNumber ?? "");
  if ("error" in method) return { ok: false, message: method.error };
  if (method.behaviour === "declines" || method.behaviour === "declines_after_attach")
    return { ok: false, message: "Your card was declined." };
  const customerId = String(session.customer);
  const extras = extrasOf(store, sessionId);
  const price = extras?.line_items[0] ? priceById(extras.line_items[0].price?.id ?? "") : null;
  if (!price) return { ok: false, message: "This price no longer exists." };
  const customer = objectOf<Stripe.Customer>(store, customerId, "customer");
  const given = entry.address ?? { country: "US", postalCode: "10001" };
  const address: Stripe.Address | null = needsAddress(session)
    ? { city: null, country: given.country, line1: null, line2: null, postal_code: given.postalCode, state: null }
    : null;
  if (customer && address && extras?.save_address) {
    const saved = store.put({ ...customer, address } satisfies Stripe.Customer);
    store.recordEvent("customer.updated", saved);
  }
  const paymentMethod = savePaymentMethod(store, customerId, method);
  const done: Stripe.Checkout.Session = {
    ...session,
    status: "complete",
    url: null,
    customer_details: checkoutCustomerDetails({
      email: customer?.email ?? null,
      name: customer?.name ?? null,
      address,
    }),
    automatic_tax: session.automatic_tax.enabled
      ? { ...session.automatic_tax, status: "complete" }
      : session.automatic_tax,
  };
  if (session.mode === "payment") {
    const paid = pay(
      store,
      customerId,
      price.unit_amount ?? 0,
      `Credit pack ${String(price.lookup_key)}`,
      { behaviour: method.behaviour, paymentMethod },
      true,
    );
    const processing = paid.status === "processing";
    const completed = store.put({
      ...done,
      payment_status: processing ? "unpaid" : "paid",
      payment_intent: paid.paymentIntent,
    } satisfies Stripe.Checkout.Session);
    store.recordEvent("checkout.session.completed", completed);
    // The bank answers a moment later: on the customer's clock, at its next advance.
    if (processing)
      schedule(store, clockIdOfCustomer(store, customerId), store.now() + 1, {
        kind: "settle_async_payment",
        session: sessionId,
      });
    return { ok: true };
  }
  const { subscription, invoice, attempt } = subscribe(store, {
    customer: customerId,
    price,
    metadata: extras?.subscription_metadata ?? {},
    billingMode: extras?.billing_mode ?? "flexible",
    automaticTax: session.automatic_tax.enabled,
    method: { behaviour: method.behaviour, paymentMethod },
  });
  const completed = store.put({
    ...done,
    payment_status: "paid",
    subscription: subscription.id,
    invoice: invoice.id,
  } satisfies Stripe.Checkout.Session);
  store.recordEvent("checkout.session.completed", completed);
  store.recordEvent("customer.subscription.created", subscription);
  attemptEvents(store, invoice.id, attempt);
  return { ok: true };
}

/** A pack paid by a delayed method: its debit succeeded (the session becomes paid) or failed. */
export function settleAsyncPayment(store: StandInStore, sessionId: string): void {
  const session = checkoutSession(store, sessionId);
  const pi = typeof session?.payment_intent === "string" ? session.payment_intent : null;
  if (!session || !pi || session.payment_status !== "unpaid") return;
  if (settleDebit(store, pi)) {
    const paid = store.put({ ...session, payment_status: "paid" } satisfies Stripe.Checkout.Session);
    store.recordEvent("checkout.session.async_payment_succeeded", paid);
  } else store.recordEvent("checkout.session.async_payment_failed", session);
}
