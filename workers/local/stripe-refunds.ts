/**
 * Local only: refunds and disputes in the stand-in, driven by Stripe's documented test cards: a refund of a
 * 4000 0000 0000 7726 payment is pending until the clock moves on, then succeeds; one of 4000 0000 0000 5126 succeeds
 * and then fails; a 4000 0000 0000 0259 payment is disputed as fraudulent a moment after it succeeds, and the dispute
 * is won or lost by the evidence sent (`winning_evidence` / `losing_evidence`), or lost when accepted.
 */
import type Stripe from "stripe";
import { methodOf } from "./stripe-cards";
import { clockIdOfCustomer, schedule } from "./stripe-clock";
import { disputeBalanceTransaction, disputeObject, EVIDENCE_TEXT_FIELDS, refundObject } from "./stripe-objects";
import {
  idOf,
  newId,
  noSuch,
  objectOf,
  pageOf,
  paramsOf,
  stringRecord,
  stripeError,
  text,
  type Params,
  type StandInStore,
} from "./stripe-store";

const REFUND_REASONS: readonly Stripe.Refund.Reason[] = [
  "duplicate",
  "expired_uncaptured_charge",
  "fraudulent",
  "requested_by_customer",
];

const chargeOf = (store: StandInStore, id: string | null) => objectOf<Stripe.Charge>(store, id, "charge");

/** `POST /v1/refunds` (by payment intent or charge). */
export function createRefund(store: StandInStore, params: Params): Response {
  const piId = text(params.payment_intent);
  const pi = piId ? objectOf<Stripe.PaymentIntent>(store, piId, "payment_intent") : null;
  if (piId && !pi) return noSuch("payment_intent", piId);
  const chargeId = pi ? idOf(pi.latest_charge) : text(params.charge);
  const charge = chargeOf(store, chargeId);
  if (!charge) return chargeId ? noSuch("charge", chargeId) : stripeError(400, "This payment has no charge to refund.");
  if (!charge.paid) return stripeError(400, `Charge ${charge.id} has not succeeded: there is nothing to refund.`);
  if (charge.disputed)
    return stripeError(400, `Charge ${charge.id} has been charged back; cannot issue a refund.`, {
      code: "charge_disputed",
    });
  const left = charge.amount - charge.amount_refunded;
  const amount = params.amount === undefined ? left : Number(params.amount);
  if (!(amount > 0) || amount > left)
    return stripeError(400, `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount.`, {
      code: "charge_already_refunded",
    });
  const behaviour = methodOf(store, idOf(charge.payment_method)).behaviour;
  const t = store.now();
  const refund = store.put(
    refundObject({
      id: newId("re"),
      amount,
      charge: charge.id,
      customer: idOf(charge.customer),
      paymentIntent: String(idOf(charge.payment_intent)),
      created: t,
      reason: REFUND_REASONS.find((r) => r === params.reason) ?? null,
      metadata: stringRecord(params.metadata) ?? {},
      status: behaviour === "refund_pending" ? "pending" : "succeeded",
    }),
  );
  const refunded = charge.amount_refunded + amount;
  const updated = store.put({
    ...charge,
    amount_refunded: refunded,
    refunded: refunded >= charge.amount,
  } satisfies Stripe.Charge);
  store.recordEvent("refund.created", refund);
  store.recordEvent("charge.refunded", updated);
  // The card network answers later: on the customer's clock, at its next advance.
  if (behaviour === "refund_pending" || behaviour === "refund_fails")
    schedule(store, clockIdOfCustomer(store, idOf(charge.customer)), t + 1, {
      kind: "settle_refund",
      refund: refund.id,
    });
  return Response.json(refund);
}

/** A pending refund succeeds; a refund of a card whose refunds fail fails after it succeeded (its amount returns). */
export function settleRefund(store: StandInStore, refundId: string): void {
  const refund = objectOf<Stripe.Refund>(store, refundId, "refund");
  const charge = chargeOf(store, idOf(refund?.charge));
  if (!refund || !charge) return;
  if (refund.status === "pending") {
    const done = store.put({ ...refundWithout(refund, "pending_reason"), status: "succeeded" } satisfies Stripe.Refund);
    store.recordEvent("refund.updated", done);
    store.recordEvent("charge.refund.updated", done);
    return;
  }
  if (refund.status !== "succeeded" || methodOf(store, idOf(charge.payment_method)).behaviour !== "refund_fails")
    return;
  const failed = store.put({
    ...refund,
    status: "failed",
    failure_reason: "expired_or_canceled_card",
  } satisfies Stripe.Refund);
  const refunded = Math.max(0, charge.amount_refunded - refund.amount);
  store.put({ ...charge, amount_refunded: refunded, refunded: refunded >= charge.amount } satisfies Stripe.Charge);
  store.recordEvent("refund.updated", failed);
  store.recordEvent("refund.failed", failed);
  store.recordEvent("charge.refund.updated", failed);
}

function refundWithout(refund: Stripe.Refund, key: "pending_reason"): Stripe.Refund {
  const { [key]: _dropped, ...rest } = refund;
  return rest;
}

export function listRefunds(store: StandInStore, search: URLSearchParams): Response {
  const [charge, pi] = [search.get("charge"), search.get("payment_intent")];
  const refunds = store
    .ofType<Stripe.Refund>("refund")
    .filter((r) => (!charge || r.charge === charge) && (!pi || r.payment_intent === pi))
    .reverse();
  const page = pageOf("/v1/refunds", refunds, search);
  return page instanceof Response ? page : Response.json(page);
}

// ── Disputes ──────────────────────────────────────────────────────────────

const disputeOf = (store: StandInStore, id: string | null) => objectOf<Stripe.Dispute>(store, id, "dispute");

/** The cardholder's bank disputes a charge as fraudulent: the funds (and the dispute fee) are withdrawn. */
export function openDispute(store: StandInStore, chargeId: string): void {
  const charge = chargeOf(store, chargeId);
  if (!charge || charge.disputed || !charge.paid) return;
  const t = store.now();
  const id = newId("du");
  const dispute = store.put(
    disputeObject({
      id,
      charge: charge.id,
      paymentIntent: idOf(charge.payment_intent),
      amount: charge.amount - charge.amount_refunded,
      created: t,
      reason: "fraudulent",
      withdrawal: disputeBalanceTransaction({
        id: newId("txn"),
        dispute: id,
        amount: charge.amount - charge.amount_refunded,
        created: t,
        withdrawn: true,
      }),
    }),
  );
  store.put({ ...charge, disputed: true } satisfies Stripe.Charge);
  store.recordEvent("charge.dispute.created", dispute);
  store.recordEvent("charge.dispute.funds_withdrawn", dispute);
}

/** The bank decides: won (the funds come back) or lost. */
export function closeDispute(store: StandInStore, disputeId: string, won: boolean): void {
  const dispute = disputeOf(store, disputeId);
  if (!dispute || ["won", "lost"].includes(dispute.status)) return;
  const reinstated = won
    ? [
        disputeBalanceTransaction({
          id: newId("txn"),
          dispute: dispute.id,
          amount: dispute.amount,
          created: store.now(),
          withdrawn: false,
        }),
      ]
    : [];
  const closed = store.put({
    ...dispute,
    status: won ? "won" : "lost",
    balance_transactions: [...dispute.balance_transactions, ...reinstated],
  } satisfies Stripe.Dispute);
  store.recordEvent("charge.dispute.closed", closed);
  if (won) store.recordEvent("charge.dispute.funds_reinstated", closed);
}

const OPEN = ["needs_response", "warning_needs_response"];

/** `POST /v1/disputes/:id`: evidence, submitted unless `submit=false`; Stripe's test strings decide the outcome. */
export function updateDispute(store: StandInStore, disputeId: string, params: Params): Response {
  const dispute = disputeOf(store, disputeId);
  if (!dispute) return noSuch("dispute", disputeId);
  if (!OPEN.includes(dispute.status))
    return stripeError(400, `This dispute is ${dispute.status}: its evidence can no longer be changed.`);
  const given = paramsOf(params.evidence);
  const unknown = Object.keys(given).filter((k) => !(EVIDENCE_TEXT_FIELDS as string[]).includes(k));
  if (unknown.length > 0)
    return stripeError(400, `Received unknown parameter: evidence[${unknown[0]}]`, {
      param: `evidence[${unknown[0]}]`,
    });
  const evidence = { ...dispute.evidence, ...stringRecord(given) };
  const submit = params.submit !== "false";
  const updated = store.put({
    ...dispute,
    evidence,
    metadata: { ...dispute.metadata, ...(stringRecord(params.metadata) ?? {}) },
    status: submit ? "under_review" : dispute.status,
    evidence_details: {
      ...dispute.evidence_details,
      has_evidence: true,
      submission_count: dispute.evidence_details.submission_count + (submit ? 1 : 0),
      submission_method: submit ? "manual" : dispute.evidence_details.submission_method,
    },
  } satisfies Stripe.Dispute);
  store.recordEvent("charge.dispute.updated", updated);
  const verdict = evidence.uncategorized_text;
  if (submit && (verdict === "winning_evidence" || verdict === "losing_evidence")) {
    const charge = chargeOf(store, idOf(dispute.charge));
    schedule(store, clockIdOfCustomer(store, idOf(charge?.customer)), store.now(), {
      kind: "close_dispute",
      dispute: dispute.id,
      won: verdict === "winning_evidence",
    });
  }
  return Response.json(updated);
}

/** `POST /v1/disputes/:id/close`: the merchant accepts the dispute, which is lost. */
export function acceptDispute(store: StandInStore, disputeId: string): Response {
  const dispute = disputeOf(store, disputeId);
  if (!dispute) return noSuch("dispute", disputeId);
  if (!OPEN.includes(dispute.status) && dispute.status !== "under_review")
    return stripeError(400, `This dispute is already ${dispute.status}.`);
  closeDispute(store, disputeId, false);
  return Response.json(disputeOf(store, disputeId));
}

export function listDisputes(store: StandInStore, search: URLSearchParams): Response {
  const [charge, pi] = [search.get("charge"), search.get("payment_intent")];
  const disputes = store
    .ofType<Stripe.Dispute>("dispute")
    .filter((d) => (!charge || d.charge === charge) && (!pi || d.payment_intent === pi))
    .reverse();
  const page = pageOf("/v1/disputes", disputes, search);
  return page instanceof Response ? page : Response.json(page);
}
