import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import type { CheckoutEntry } from "../../workers/local/stripe-checkout";
import { standIn } from "./stand-in";
import { advance, eventsAbout, stripe, subscriber } from "./stand-in-sdk";

// Refunds that are pending or fail later, disputes, and packs paid by a delayed method, driven as on Stripe by its
// documented test cards and bank accounts; what is asynchronous on Stripe moves on when the customer's test clock advances.

/** A customer who bought the 500-credit pack on the checkout page with `entry` (a test card, or a test bank account). */
async function packBuyer(email: string, entry: string | CheckoutEntry) {
  const customer = await stripe.customers.create({ email });
  const session = await stripe.checkout.sessions.create({
    mode: "payment",
    customer: customer.id,
    line_items: [{ price: "price_credits_500", quantity: 1 }],
    success_url: "http://localhost/credits",
  });
  expect(await standIn().completeCheckout(session.id, entry)).toEqual({ ok: true });
  const paid = await stripe.checkout.sessions.retrieve(session.id);
  const intent = await stripe.paymentIntents.retrieve(String(paid.payment_intent));
  return { customer, session: paid, intent, charge: String(intent.latest_charge), clock: String(customer.test_clock) };
}

const chargeOf = (id: string) => stripe.charges.retrieve(id);

describe("refunds", () => {
  it("4000 0000 0000 7726: the refund is pending, and succeeds when the clock moves on", async () => {
    const { intent, charge, clock } = await packBuyer("refund-pending@example.com", "4000 0000 0000 7726");
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 600 });
    expect(refund).toMatchObject({ status: "pending", pending_reason: "processing", amount: 600 });
    expect(await chargeOf(charge)).toMatchObject({ amount_refunded: 600, refunded: false });
    expect(await eventsAbout(refund.id)).toEqual(["refund.created"]);
    expect(await eventsAbout(charge)).toEqual(["charge.refunded"]);
    await advance(clock, 1);
    const done = await stripe.refunds.retrieve(refund.id);
    expect(done.status).toBe("succeeded");
    expect(done).not.toHaveProperty("pending_reason");
    expect(await eventsAbout(refund.id)).toEqual(["refund.created", "refund.updated", "charge.refund.updated"]);
  });

  it("4000 0000 0000 5126: the refund succeeds, then fails when the clock moves on, and its amount returns", async () => {
    const { intent, charge, clock } = await packBuyer("refund-fails@example.com", "4000 0000 0000 5126");
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund).toMatchObject({ status: "succeeded", amount: 1000 });
    expect(await chargeOf(charge)).toMatchObject({ amount_refunded: 1000, refunded: true });
    await advance(clock, 1);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: "failed",
      failure_reason: "expired_or_canceled_card",
    });
    expect(await chargeOf(charge)).toMatchObject({ amount_refunded: 0, refunded: false });
    expect(await eventsAbout(refund.id)).toEqual([
      "refund.created",
      "refund.updated",
      "refund.failed",
      "charge.refund.updated",
    ]);
    expect((await stripe.refunds.list({ charge })).data.map((r) => r.status)).toEqual(["failed"]);
  });

  it("4242…: the refund succeeds at once and stays so", async () => {
    const { intent, clock } = await packBuyer("refund-plain@example.com", "4242 4242 4242 4242");
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 250 });
    expect(refund.status).toBe("succeeded");
    await advance(clock, 3600);
    expect(await eventsAbout(refund.id)).toEqual(["refund.created"]);
  });
});

describe("disputes", () => {
  it("4000 0000 0000 0259 is disputed as fraudulent after paying; winning evidence wins it back", async () => {
    const { intent, charge } = await packBuyer("disputed@example.com", "4000 0000 0000 0259");
    expect(intent.status).toBe("succeeded");
    const [dispute] = (await stripe.disputes.list({ charge })).data;
    expect(dispute).toMatchObject({ status: "needs_response", reason: "fraudulent", amount: 1000, livemode: false });
    expect(dispute!.balance_transactions[0]).toMatchObject({ amount: -1000, fee: 1500 });
    expect(await chargeOf(charge)).toMatchObject({ disputed: true });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({ statusCode: 400 });
    const submitted = await stripe.disputes.update(dispute!.id, {
      evidence: { uncategorized_text: "winning_evidence" },
    });
    expect(submitted.status).toBe("under_review");
    const closed = await stripe.disputes.retrieve(dispute!.id);
    expect(closed.status).toBe("won");
    expect(closed.balance_transactions.map((t) => t.amount)).toEqual([-1000, 1000]);
    expect(await eventsAbout(dispute!.id)).toEqual([
      "charge.dispute.created",
      "charge.dispute.funds_withdrawn",
      "charge.dispute.updated",
      "charge.dispute.closed",
      "charge.dispute.funds_reinstated",
    ]);
  });

  it("losing evidence loses it; a subscription paid with 0259 is disputed too", async () => {
    const { charge } = await packBuyer("dispute-lost@example.com", "4000 0000 0000 0259");
    const [dispute] = (await stripe.disputes.list({ charge })).data;
    await stripe.disputes.update(dispute!.id, { evidence: { uncategorized_text: "losing_evidence" } });
    expect(await stripe.disputes.retrieve(dispute!.id)).toMatchObject({ status: "lost" });
    expect((await eventsAbout(dispute!.id)).slice(-1)).toEqual(["charge.dispute.closed"]);
    await expect(
      stripe.disputes.update(dispute!.id, { evidence: { uncategorized_text: "more" } }),
    ).rejects.toMatchObject({ statusCode: 400 });

    const { subscription } = await subscriber("dispute-sub@example.com", "basic_monthly", "4000 0000 0000 0259");
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice), { expand: ["payments"] });
    const paidBy = await stripe.paymentIntents.retrieve(String(invoice.payments?.data[0]?.payment.payment_intent));
    const disputes = await stripe.disputes.list({ payment_intent: paidBy.id });
    expect(disputes.data.map((d) => d.status)).toEqual(["needs_response"]);
  });
});

describe("a pack paid by a delayed method (ACH Direct Debit)", () => {
  it("completes unpaid, then its payment succeeds when the clock moves on", async () => {
    const { session, intent, charge, clock } = await packBuyer("debit-paid@example.com", {
      bankAccount: { routingNumber: "110000000", accountNumber: "000123456789" },
    });
    expect(session).toMatchObject({ status: "complete", payment_status: "unpaid" });
    expect(intent).toMatchObject({ status: "processing", payment_method_types: ["us_bank_account"] });
    expect(await chargeOf(charge)).toMatchObject({ status: "pending", paid: false });
    expect(await eventsAbout(session.id)).toEqual(["checkout.session.completed"]);
    await advance(clock, 1);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ payment_status: "paid" });
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({
      status: "succeeded",
      amount_received: 1000,
    });
    expect(await chargeOf(charge)).toMatchObject({ status: "succeeded", paid: true });
    expect(await eventsAbout(session.id)).toEqual([
      "checkout.session.completed",
      "checkout.session.async_payment_succeeded",
    ]);
  });

  it("or fails; a subscription cannot be paid by it", async () => {
    const { session, intent, clock } = await packBuyer("debit-failed@example.com", {
      bankAccount: { routingNumber: "110000000", accountNumber: "000111111113" },
    });
    await advance(clock, 1);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ payment_status: "unpaid" });
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: "requires_payment_method" });
    expect(await eventsAbout(session.id)).toEqual([
      "checkout.session.completed",
      "checkout.session.async_payment_failed",
    ]);

    const customer = await stripe.customers.create({ email: "debit-sub@example.com" });
    const sub = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: "price_basic_monthly", quantity: 1 }],
    });
    const refused = await standIn().completeCheckout(sub.id, {
      bankAccount: { routingNumber: "110000000", accountNumber: "000123456789" },
    });
    expect(refused).toEqual({ ok: false, message: "The stand-in takes a bank debit for one-time purchases only." });
    expect((await stripe.checkout.sessions.retrieve(sub.id)) as Stripe.Checkout.Session).toMatchObject({
      status: "open",
    });
  });
});
