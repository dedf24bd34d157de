import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { addIntervals } from "../../workers/local/stripe-objects";
import { standIn } from "./stand-in";
import { advance, DAY, eventsAbout, stripe, subscriber, switchTo } from "./stand-in-sdk";

// Stripe's test clocks in the stand-in: every customer is on one, and advancing it runs what falls due in time order.

const HOUR = 3600;

/** Saves a card on the customer through the stand-in's portal page, as the customer would. */
async function saveCard(customer: string, card: string) {
  const portal = await stripe.billingPortal.sessions.create({ customer, return_url: "http://localhost/billing" });
  expect(await standIn().portalAction(portal.id, { intent: "card", cardNumber: card })).toEqual({ ok: true });
}

const periodOf = (sub: Stripe.Subscription) => sub.items.data[0]!;

describe("test clocks", () => {
  it("are created, read, listed and advanced as Stripe's, which refuses going back or too far", async () => {
    const created = await stripe.testHelpers.testClocks.create({ frozen_time: 1_800_000_000, name: "mine" });
    expect(created).toMatchObject({ object: "test_helpers.test_clock", frozen_time: 1_800_000_000, status: "ready" });
    expect((await stripe.testHelpers.testClocks.list({ limit: 100 })).data.map((c) => c.id)).toContain(created.id);
    const advancing = await stripe.testHelpers.testClocks.advance(created.id, { frozen_time: 1_800_000_600 });
    expect(advancing).toMatchObject({
      status: "advancing",
      status_details: { advancing: { target_frozen_time: 1_800_000_600 } },
    });
    expect(await stripe.testHelpers.testClocks.retrieve(created.id)).toMatchObject({
      frozen_time: 1_800_000_600,
      status: "ready",
    });
    await expect(
      stripe.testHelpers.testClocks.advance(created.id, { frozen_time: 1_800_000_000 }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
    // With no subscription on it, two years at most.
    await expect(
      stripe.testHelpers.testClocks.advance(created.id, { frozen_time: 1_800_000_600 + 3 * 365 * DAY }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await eventsAbout(created.id)).toEqual([
      "test_helpers.test_clock.created",
      "test_helpers.test_clock.advancing",
      "test_helpers.test_clock.ready",
    ]);
    // A customer created on a named clock lives on it.
    const customer = await stripe.customers.create({ email: "named-clock@example.com", test_clock: created.id });
    expect(customer).toMatchObject({ test_clock: created.id, created: 1_800_000_600 });
  });

  it("a monthly subscription's clock moves at most two months at once; a yearly one's two years", async () => {
    const monthly = await subscriber("limit-monthly@example.com", "basic_monthly");
    await expect(advance(monthly.clock, 70 * DAY)).rejects.toMatchObject({ statusCode: 400 });
    const yearly = await subscriber("limit-yearly@example.com", "basic_yearly");
    const twoYears = addIntervals(yearly.subscription.created, "yearly", 2);
    await advance(yearly.clock, twoYears - yearly.subscription.created);
    const renewed = await stripe.subscriptions.retrieve(yearly.subscription.id);
    expect(periodOf(renewed).current_period_start).toBe(twoYears);
  });
});

describe("renewals on the clock", () => {
  it("at the period end a draft subscription_cycle invoice; an hour later it is finalized and paid by the saved card", async () => {
    const { subscription, clock } = await subscriber("renews@example.com", "basic_monthly");
    const end = periodOf(subscription).current_period_end;
    const next = addIntervals(subscription.created, "monthly", 2);
    await advance(clock, end - subscription.created);
    const moved = await stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice"] });
    expect(periodOf(moved)).toMatchObject({ current_period_start: end, current_period_end: next });
    const draft = moved.latest_invoice as Stripe.Invoice;
    expect(draft).toMatchObject({
      status: "draft",
      billing_reason: "subscription_cycle",
      created: end,
      test_clock: clock,
    });
    expect(await eventsAbout(draft.id)).toEqual(["invoice.created"]);

    await advance(clock, HOUR);
    const paid = await stripe.invoices.retrieve(draft.id, { expand: ["payments"] });
    expect(paid).toMatchObject({ status: "paid", amount_paid: 1500, status_transitions: { finalized_at: end + HOUR } });
    expect(paid.number).toMatch(/^LOCAL-/);
    expect(paid.lines.data).toHaveLength(1);
    expect(paid.lines.data[0]).toMatchObject({ amount: 1500, period: { start: end, end: next } });
    expect(paid.lines.data[0]!.parent?.subscription_item_details?.proration).toBe(false);
    const intent = await stripe.paymentIntents.retrieve(String(paid.payments?.data[0]?.payment.payment_intent));
    expect(intent).toMatchObject({ status: "succeeded", amount: 1500, created: end + HOUR });
    expect(await eventsAbout(draft.id)).toEqual(["invoice.created", "invoice.finalized", "invoice.paid"]);
    expect(await eventsAbout(subscription.id)).toEqual([
      "customer.subscription.created",
      "customer.subscription.updated",
    ]);
    // Events are stamped with the clock's time.
    const [paidEvent] = (await stripe.events.list({ type: "invoice.paid", limit: 1 })).data;
    expect(paidEvent).toMatchObject({ created: end + HOUR, livemode: false });
  });

  it("a declined renewal makes the subscription past due, is retried, and ends it two weeks on", async () => {
    const { customer, subscription, clock } = await subscriber("declined-renewal@example.com", "basic_monthly");
    await saveCard(customer.id, "4000 0000 0000 0341");
    const end = periodOf(subscription).current_period_end;
    await advance(clock, end - subscription.created + HOUR);
    const pastDue = await stripe.subscriptions.retrieve(subscription.id);
    expect(pastDue.status).toBe("past_due");
    const invoice = await stripe.invoices.retrieve(String(pastDue.latest_invoice));
    expect(invoice).toMatchObject({ status: "open", attempt_count: 1, next_payment_attempt: end + HOUR + 3 * DAY });
    expect(invoice.hosted_invoice_url).toMatch(/\/dev\/stripe\/invoice\/in_/);
    expect(await eventsAbout(invoice.id)).toEqual(["invoice.created", "invoice.finalized", "invoice.payment_failed"]);
    await advance(clock, 3 * DAY);
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({
      attempt_count: 2,
      next_payment_attempt: end + HOUR + 7 * DAY,
    });
    await advance(clock, 11 * DAY);
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({
      status: "canceled",
      ended_at: end + HOUR + 14 * DAY,
      cancellation_details: { reason: "payment_failed" },
    });
    expect((await eventsAbout(subscription.id)).at(-1)).toBe("customer.subscription.deleted");
  });

  it("a renewal that needs 3-D Secure asks for action on its hosted page, where paying it ends past due", async () => {
    const { subscription, clock } = await subscriber("renewal-3ds@example.com", "basic_monthly", "4000 0027 6000 3184");
    await advance(clock, periodOf(subscription).current_period_end - subscription.created + HOUR);
    const waiting = await stripe.subscriptions.retrieve(subscription.id);
    expect(waiting.status).toBe("past_due");
    const invoice = await stripe.invoices.retrieve(String(waiting.latest_invoice), { expand: ["payments"] });
    expect(invoice.status).toBe("open");
    expect(invoice.hosted_invoice_url).toMatch(new RegExp(`/dev/stripe/invoice/${invoice.id}$`));
    const intent = await stripe.paymentIntents.retrieve(String(invoice.payments?.data[0]?.payment.payment_intent));
    expect(intent.status).toBe("requires_action");
    expect(await eventsAbout(invoice.id)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "invoice.payment_failed",
      "invoice.payment_action_required",
    ]);
    expect(await standIn().payInvoice(invoice.id)).toEqual({ ok: true });
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: "paid" });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: "active" });
    expect((await eventsAbout(subscription.id)).slice(-2)).toEqual([
      "customer.subscription.updated",
      "customer.subscription.updated",
    ]);
  });

  it("cancel at period end ends the subscription at its period end, with no renewal", async () => {
    const { subscription, clock } = await subscriber("cancels@example.com", "basic_monthly");
    const end = periodOf(subscription).current_period_end;
    const set = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(set).toMatchObject({ cancel_at_period_end: true, cancel_at: end, canceled_at: subscription.created });
    await advance(clock, end - subscription.created + DAY);
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({
      status: "canceled",
      ended_at: end,
      cancellation_details: { reason: "cancellation_requested" },
    });
    expect(ended.latest_invoice).toBe(subscription.latest_invoice);
    expect(await eventsAbout(subscription.id)).toEqual([
      "customer.subscription.created",
      "customer.subscription.updated",
      "customer.subscription.deleted",
    ]);
  });

  it("a pending update expires on the clock: its invoice voided, nothing applied", async () => {
    const { customer, subscription, clock } = await subscriber("pending-expiry@example.com", "basic_monthly");
    await saveCard(customer.id, "4000 0000 0000 0341");
    const { subscription: waiting, invoice } = await switchTo(subscription, "pro_monthly", "always_invoice");
    expect(waiting.pending_update?.expires_at).toBe(subscription.created + 23 * HOUR);
    await advance(clock, 23 * HOUR);
    expect(await eventsAbout(subscription.id)).toContain("customer.subscription.pending_update_expired");
    expect(await eventsAbout(invoice.id)).toContain("invoice.voided");
    const after = await stripe.subscriptions.retrieve(subscription.id);
    expect(after.pending_update).toBeNull();
    expect(periodOf(after).price.lookup_key).toBe("basic_monthly");
  });
});

describe("Checkout Sessions on the clock", () => {
  it("an open session expires at expires_at with checkout.session.expired; expiring one by the API says so too", async () => {
    const customer = await stripe.customers.create({ email: "expiry@example.com" });
    const line_items = [{ price: "price_credits_500", quantity: 1 }];
    const session = await stripe.checkout.sessions.create({ mode: "payment", customer: customer.id, line_items });
    expect(session.expires_at).toBe(customer.created + 24 * HOUR);
    await advance(String(customer.test_clock), 24 * HOUR);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: "expired", url: null });
    expect(await eventsAbout(session.id)).toEqual(["checkout.session.expired"]);
    const other = await stripe.checkout.sessions.create({ mode: "payment", customer: customer.id, line_items });
    await stripe.checkout.sessions.expire(other.id);
    expect(await eventsAbout(other.id)).toEqual(["checkout.session.expired"]);
  });
});
