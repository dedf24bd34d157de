/**
 * Local only: Stripe's documented test cards and test US bank accounts (docs.stripe.com/testing), what each does when
 * charged, and the one place a payment is made (a payment intent, and a charge once it reached the network).
 */
import type Stripe from "stripe";
import { clockIdOfCustomer, schedule } from "./stripe-clock";
import {
  cardPaymentMethod,
  chargeObject,
  paymentIntentObject,
  usBankAccountPaymentMethod,
  type PaymentOutcome,
} from "./stripe-objects";
import { idOf, newId, objectOf, type StandInStore } from "./stripe-store";

/** How a test payment method behaves; kept on the saved payment method (Stripe knows it from the number). */
export type CardBehaviour =
  | "succeeds"
  | "declines"
  | "declines_after_attach"
  | "authenticates"
  | "refund_pending"
  | "refund_fails"
  | "disputed"
  | "debit_succeeds"
  | "debit_fails";

const CARDS: Record<string, CardBehaviour> = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declines",
  "4000000000000341": "declines_after_attach",
  "4000002760003184": "authenticates",
  "4000000000007726": "refund_pending",
  "4000000000005126": "refund_fails",
  "4000000000000259": "disputed",
};

/** Stripe's ACH Direct Debit test accounts (routing number 110000000): the debit succeeds, or fails, later. */
const TEST_ROUTING = "110000000";
const ACCOUNTS: Record<string, CardBehaviour> = {
  "000123456789": "debit_succeeds",
  "000111111113": "debit_fails",
};

export interface TestMethod {
  behaviour: CardBehaviour;
  last4: string;
  /** A bank account's routing number. */
  routingNumber?: string;
}

/**
 * 4242… pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 0341 can be saved but every later charge is declined;
 * 4000 0027 6000 3184 asks for 3-D Secure on every payment (passed where the customer is present, at checkout or on
 * the invoice page; an off-session charge waits for them); 4000 0000 0000 7726 pays, and its refunds are pending
 * before they succeed; 4000 0000 0000 5126 pays, and its refunds succeed and then fail; 4000 0000 0000 0259 pays and
 * is then disputed as fraudulent.
 */
export function testCard(number: string): TestMethod | { error: string } {
  const digits = number.replace(/[\s-]/g, "");
  const behaviour = CARDS[digits];
  if (!behaviour) return { error: "Your card number is invalid. Use a Stripe test card such as 4242 4242 4242 4242." };
  return { behaviour, last4: digits.slice(-4) };
}

export function testBankAccount(routingNumber: string, accountNumber: string): TestMethod | { error: string } {
  const [routing, account] = [routingNumber, accountNumber].map((n) => n.replace(/[\s-]/g, ""));
  const behaviour = ACCOUNTS[account ?? ""];
  if (routing !== TEST_ROUTING || !behaviour)
    return {
      error: "Your bank account is invalid. Use Stripe's test routing number 110000000 and account 000123456789.",
    };
  return { behaviour, last4: (account ?? "").slice(-4), routingNumber: routing };
}

const isDebit = (b: CardBehaviour | null) => b === "debit_succeeds" || b === "debit_fails";

const BEHAVIOURS: readonly string[] = [...Object.values(CARDS), ...Object.values(ACCOUNTS)];
const isBehaviour = (v: unknown): v is CardBehaviour => typeof v === "string" && BEHAVIOURS.includes(v);

export interface PayingMethod {
  behaviour: CardBehaviour | null;
  paymentMethod: string | null;
}

/** How a saved payment method behaves. */
export function methodOf(store: StandInStore, pmId: string | null): PayingMethod {
  const pm = objectOf<Stripe.PaymentMethod>(store, pmId, "payment_method");
  const behaviour = pm?.metadata?.behaviour;
  return { behaviour: isBehaviour(behaviour) ? behaviour : null, paymentMethod: pm?.id ?? null };
}

/** The customer's default payment method and how it behaves. */
export function defaultMethod(store: StandInStore, customerId: string): PayingMethod {
  const customer = objectOf<Stripe.Customer>(store, customerId, "customer");
  return methodOf(store, idOf(customer?.invoice_settings.default_payment_method ?? null));
}

/** Saves a test card (or account) on the customer and makes it their default. */
export function savePaymentMethod(store: StandInStore, customerId: string, method: TestMethod): string {
  const input = { id: newId("pm"), customer: customerId, created: store.now(), ...method };
  const pm = store.put(
    isDebit(method.behaviour)
      ? usBankAccountPaymentMethod({ ...input, routingNumber: method.routingNumber ?? TEST_ROUTING })
      : cardPaymentMethod(input),
  );
  const customer = objectOf<Stripe.Customer>(store, customerId, "customer");
  if (customer)
    store.put({ ...customer, invoice_settings: { ...customer.invoice_settings, default_payment_method: pm.id } });
  return pm.id;
}

export type Attempt =
  | { status: "succeeded" | "processing"; paymentIntent: string }
  | { status: "requires_payment_method" | "requires_action"; paymentIntent: string; message: string };

/** One payment of `amount`: a PaymentIntent, and a charge when it reached the network (or the bank, for a debit). */
export function pay(
  store: StandInStore,
  customer: string,
  amount: number,
  description: string,
  method: PayingMethod,
  onSession: boolean,
): Attempt {
  const piId = newId("pi");
  const t = store.now();
  const { behaviour } = method;
  const outcome: PaymentOutcome = isDebit(behaviour)
    ? "processing"
    : behaviour === "authenticates"
      ? onSession
        ? "succeeded"
        : "requires_action"
      : behaviour === null || behaviour === "declines" || behaviour === "declines_after_attach"
        ? "requires_payment_method"
        : "succeeded";
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
            paymentMethod: method.paymentMethod,
            declined,
            pending: outcome === "processing",
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
      paymentMethod: method.paymentMethod,
      methodType: isDebit(behaviour) ? "us_bank_account" : "card",
    }),
  );
  // The cardholder's bank disputes this card's payments as fraudulent a moment after they succeed.
  if (charge && outcome === "succeeded" && behaviour === "disputed")
    schedule(store, clockIdOfCustomer(store, customer), t, { kind: "open_dispute", charge: charge.id });
  if (outcome === "succeeded" || outcome === "processing") return { status: outcome, paymentIntent: piId };
  const message = declined
    ? "Your card was declined."
    : "This payment needs the customer to authenticate (3-D Secure).";
  return { status: outcome, paymentIntent: piId, message };
}

/** A debit in flight reaches its end: the bank pays it or refuses it. */
export function settleDebit(store: StandInStore, paymentIntentId: string): boolean {
  const pi = objectOf<Stripe.PaymentIntent>(store, paymentIntentId, "payment_intent");
  if (!pi || pi.status !== "processing") return pi?.status === "succeeded";
  const chargeId = idOf(pi.latest_charge);
  const charge = objectOf<Stripe.Charge>(store, chargeId, "charge");
  const ok = methodOf(store, idOf(pi.payment_method)).behaviour !== "debit_fails";
  store.put({
    ...pi,
    status: ok ? "succeeded" : "requires_payment_method",
    amount_received: ok ? pi.amount : 0,
    last_payment_error: ok
      ? null
      : {
          type: "invalid_request_error",
          code: "account_closed",
          message: "The customer's bank account has been closed.",
        },
  } satisfies Stripe.PaymentIntent);
  if (charge)
    store.put({
      ...charge,
      status: ok ? "succeeded" : "failed",
      paid: ok,
      amount_captured: ok ? charge.amount : 0,
      failure_code: ok ? null : "account_closed",
      failure_message: ok ? null : "The customer's bank account has been closed.",
    } satisfies Stripe.Charge);
  return ok;
}
