import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { planPeriodPriceCents } from "~/domain/plans";
import { addIntervals } from "../../workers/local/stripe-objects";
import { advance, DAY, eventsAbout, stripe, subscriber } from "./stand-in-sdk";

// Subscription schedules in the stand-in, as Stripe keeps them: made from a running subscription, given the phase
// that follows the current period, released or cancelled; the test clock moves the subscription from phase to phase.

const HOUR = 3600;
const periodOf = (sub: Stripe.Subscription) => sub.items.data[0]!;
const advanceTo = async (clock: string, at: number) =>
  advance(clock, at - (await stripe.testHelpers.testClocks.retrieve(clock)).frozen_time);

/** A Pro monthly subscriber whose schedule moves to `next` at the period end. */
async function scheduled(email: string, next = "price_basic_yearly") {
  const made = await subscriber(email, "pro_monthly");
  const { current_period_start: start, current_period_end: end } = periodOf(made.subscription);
  const schedule = await stripe.subscriptionSchedules.create({ from_subscription: made.subscription.id });
  const updated = await stripe.subscriptionSchedules.update(schedule.id, {
    phases: [
      { items: [{ price: "price_pro_monthly", quantity: 1 }], start_date: start, end_date: end },
      {
        items: [{ price: next, quantity: 1 }],
        start_date: end,
        duration: { interval: "year", interval_count: 1 },
        proration_behavior: "none",
      },
    ],
    end_behavior: "release",
  });
  return { ...made, schedule: updated, start, end };
}

describe("subscription schedules", () => {
  it("from a subscription: its current period is the first phase, and the subscription names the schedule", async () => {
    const { subscription } = await subscriber("sched-from@example.com", "pro_monthly");
    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    const { current_period_start: start, current_period_end: end } = periodOf(subscription);
    expect(schedule).toMatchObject({
      object: "subscription_schedule",
      status: "active",
      subscription: subscription.id,
      end_behavior: "release",
      current_phase: { start_date: start, end_date: end },
      phases: [{ start_date: start, end_date: end, items: [{ price: "price_pro_monthly", quantity: 1 }] }],
    });
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id);
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toEqual(schedule);
    // A second schedule for the same subscription is refused.
    await expect(stripe.subscriptionSchedules.create({ from_subscription: subscription.id })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it("moves the subscription to the next phase's price at the period end: a new yearly cycle, invoiced and charged", async () => {
    const { subscription, schedule, clock, end } = await scheduled("sched-move@example.com");
    expect(schedule.phases.map((p) => [p.start_date, p.end_date])).toEqual([
      [schedule.phases[0]!.start_date, end],
      [end, addIntervals(end, "yearly", 1)],
    ]);
    // Until the period end nothing changes.
    await advanceTo(clock, end - HOUR);
    expect(periodOf(await stripe.subscriptions.retrieve(subscription.id)).price.lookup_key).toBe("pro_monthly");

    await advanceTo(clock, end + HOUR + 1);
    const moved = await stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice"] });
    expect(periodOf(moved)).toMatchObject({
      price: { lookup_key: "basic_yearly" },
      current_period_start: end,
      current_period_end: addIntervals(end, "yearly", 1),
    });
    expect(moved).toMatchObject({ status: "active", billing_cycle_anchor: end, schedule: schedule.id });
    const invoice = moved.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: "paid",
      billing_reason: "subscription_cycle",
      amount_paid: planPeriodPriceCents("Basic", "yearly"),
    });
    expect(invoice.lines.data[0]).toMatchObject({ period: { start: end, end: addIntervals(end, "yearly", 1) } });
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({
      status: "active",
      current_phase: { start_date: end, end_date: addIntervals(end, "yearly", 1) },
    });
    expect(await eventsAbout(schedule.id)).toEqual([
      "subscription_schedule.created",
      "subscription_schedule.updated",
      "subscription_schedule.updated",
    ]);
    expect(await eventsAbout(invoice.id)).toEqual(expect.arrayContaining(["invoice.created", "invoice.paid"]));
    expect((await eventsAbout(subscription.id)).filter((t) => t === "customer.subscription.updated").length).toBe(2);

    // At the end of the last phase the schedule releases the subscription, which renews on its own.
    await advanceTo(clock, addIntervals(end, "yearly", 1) + HOUR + 1);
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({
      status: "released",
      released_subscription: subscription.id,
      subscription: null,
    });
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.schedule).toBeNull();
    expect(periodOf(renewed)).toMatchObject({
      price: { lookup_key: "basic_yearly" },
      current_period_start: addIntervals(end, "yearly", 1),
    });
    expect(await eventsAbout(schedule.id)).toContain("subscription_schedule.released");
  });

  it("released before the period end: the subscription stays as it is and renews on its own price", async () => {
    const { subscription, schedule, clock, end } = await scheduled("sched-release@example.com");
    const released = await stripe.subscriptionSchedules.release(schedule.id);
    expect(released).toMatchObject({ status: "released", released_subscription: subscription.id, subscription: null });
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBeNull();
    await expect(stripe.subscriptionSchedules.release(schedule.id)).rejects.toMatchObject({ statusCode: 400 });
    await advanceTo(clock, end + HOUR + 1);
    const renewed = await stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice"] });
    expect(periodOf(renewed)).toMatchObject({ price: { lookup_key: "pro_monthly" }, current_period_start: end });
    expect(renewed.latest_invoice).toMatchObject({ amount_paid: planPeriodPriceCents("Pro", "monthly") });
  });

  it("manages the subscription's ending: a direct cancel at period end is refused; cancelling the schedule ends both", async () => {
    const { subscription, schedule } = await scheduled("sched-cancel@example.com");
    await expect(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining("managed by the subscription schedule"),
    });
    await expect(
      stripe.subscriptions.update(subscription.id, {
        items: [{ id: periodOf(subscription).id, price: "price_basic_monthly" }],
        proration_behavior: "none",
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const canceled = await stripe.subscriptionSchedules.cancel(schedule.id);
    expect(canceled).toMatchObject({ status: "canceled" });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("canceled");
    expect(await eventsAbout(schedule.id)).toContain("subscription_schedule.canceled");
  });

  it("refuses phases it cannot keep, changing nothing", async () => {
    const { subscription, schedule, start, end } = await scheduled("sched-bad@example.com");
    const bad: Stripe.SubscriptionScheduleUpdateParams.Phase[][] = [
      // The current phase's start moved.
      [{ items: [{ price: "price_pro_monthly" }], start_date: start + DAY, end_date: end }],
      // A price nobody sells.
      [
        { items: [{ price: "price_pro_monthly" }], start_date: start, end_date: end },
        { items: [{ price: "price_nope" }], start_date: end },
      ],
      // A duration the stand-in does not keep.
      [
        { items: [{ price: "price_pro_monthly" }], start_date: start, end_date: end },
        { items: [{ price: "price_basic_yearly" }], start_date: end, duration: { interval: "day", interval_count: 3 } },
      ],
      // A gap between phases.
      [
        { items: [{ price: "price_pro_monthly" }], start_date: start, end_date: end },
        { items: [{ price: "price_basic_yearly" }], start_date: end + DAY },
      ],
    ];
    for (const phases of bad)
      await expect(stripe.subscriptionSchedules.update(schedule.id, { phases })).rejects.toMatchObject({
        statusCode: 400,
      });
    await expect(stripe.subscriptionSchedules.retrieve("sub_sched_nope")).rejects.toMatchObject({ statusCode: 404 });
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toEqual(schedule);
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id);
  });
});
