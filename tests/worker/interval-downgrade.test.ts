/**
 * A downgrade to another interval (Pro monthly to Basic yearly) takes effect at the period end, as the plan page
 * says: Stripe would start the new interval's billing cycle the moment the price changed, so a subscription schedule
 * holds the change until then. "Keep my plan" drops it.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runningSubscription } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { formatShortDate } from "~/domain/greeting";
import { PLANS } from "~/domain/plans";
import { get, insertUser, ORIGIN, post, sessionFor } from "./helpers";
import { TEST_ADDRESS } from "./stand-in";
import { stripe } from "./stand-in-sdk";

const db = getDb(env.DB);
const HOUR = 3600;

async function userRow(id: string) {
  return (await env.DB.prepare("SELECT plan, pending_plan, credits FROM users WHERE id = ?").bind(id).first()) as {
    plan: string;
    pending_plan: string | null;
    credits: number;
  };
}

/** A creator who paid Pro monthly on the stand-in's checkout page, and their subscription as Stripe has it. */
async function subscribedPro(tag: string) {
  const email = `${tag}@example.com`;
  const userId = await insertUser({ email });
  const cookie = await sessionFor(userId);
  const started = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
  expect(started.status).toBe(302);
  const checkout = new URL(started.headers.get("Location") ?? "").pathname;
  expect((await post(checkout, { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS }, { cookie })).status).toBe(302);
  const running = await runningSubscription(db, userId);
  const subscription = await stripe.subscriptions.retrieve(String(running?.id));
  return { userId, email, cookie, subscription, end: subscription.items.data[0]!.current_period_end };
}

/** Moves the creator's test clock to `at` (seconds) through the local Worker, delivering Stripe's events. */
async function advanceTo(email: string, clock: string, at: number) {
  const now = (await stripe.testHelpers.testClocks.retrieve(clock)).frozen_time;
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/dev/stripe/advance`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, seconds: at - now }),
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

describe("a downgrade to another interval", () => {
  it("keeps Pro to the period end, as the page says, then is Basic yearly with Basic's credits from its invoice", async () => {
    const { userId, email, cookie, subscription, end } = await subscribedPro("interval-down");
    const before = await userRow(userId);
    expect(before).toMatchObject({ plan: "Pro", pending_plan: null });

    const changed = await post("/billing/plan", { plan: "Basic", billing: "yearly" }, { cookie });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("It takes effect at the end of your current billing period.");
    // Nothing changes now: the plan, its credits and the price Stripe charges stay Pro monthly.
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: "Basic", credits: before.credits });
    expect(await runningSubscription(db, userId)).toMatchObject({
      plan: "Pro",
      interval: "monthly",
      pendingPlan: "Basic",
    });
    const held = await stripe.subscriptions.retrieve(subscription.id);
    expect(held.items.data[0]).toMatchObject({ price: { lookup_key: "pro_monthly" }, current_period_end: end });
    const page = await (await get("/billing/plan", { cookie })).text();
    expect(page).toMatch(/data-testid="plan-name"[^>]*>Pro</);
    expect(page).toContain("Changes to <!-- -->Basic<!-- --> at the end of this period");
    expect(page).toContain(formatShortDate(end * 1000, "UTC"));

    // Renewals are finalized and charged an hour after the period end.
    await advanceTo(email, String(subscription.test_clock), end + HOUR + 1);
    const moved = await stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice"] });
    expect(moved.items.data[0]).toMatchObject({ price: { lookup_key: "basic_yearly" }, current_period_start: end });
    expect(moved.latest_invoice).toMatchObject({ status: "paid", amount_paid: 12 * PLANS.Basic.priceYearly * 100 });
    expect(await userRow(userId)).toMatchObject({
      plan: "Basic",
      pending_plan: null,
      credits: before.credits + PLANS.Basic.credits,
    });
    expect(await runningSubscription(db, userId)).toMatchObject({
      plan: "Basic",
      interval: "yearly",
      pendingPlan: null,
    });
    const after = await (await get("/billing/plan", { cookie })).text();
    expect(after).toMatch(/data-testid="plan-name"[^>]*>Basic</);
    expect(after).toContain("Billed <!-- -->yearly<!-- -->.");
    expect(after).not.toContain("at the end of this period");
  });

  it("Keep my plan before the end drops it: the schedule is released and Pro monthly renews", async () => {
    const { userId, email, cookie, subscription, end } = await subscribedPro("interval-keep");
    const before = await userRow(userId);
    expect((await post("/billing/plan", { plan: "Basic", billing: "yearly" }, { cookie })).status).toBe(200);
    const schedule = String((await stripe.subscriptions.retrieve(subscription.id)).schedule);
    expect(schedule).toMatch(/^sub_sched_/);
    expect(await (await get("/billing/plan", { cookie })).text()).toContain('data-testid="keep-plan"');

    const kept = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
    expect(kept.status).toBe(200);
    expect(await kept.text()).toContain("You keep your Pro plan: the scheduled change is cancelled.");
    expect(await stripe.subscriptionSchedules.retrieve(schedule)).toMatchObject({ status: "released" });
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBeNull();
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: null });
    expect(await (await get("/billing/plan", { cookie })).text()).not.toContain("at the end of this period");

    await advanceTo(email, String(subscription.test_clock), end + HOUR + 1);
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.items.data[0]).toMatchObject({ price: { lookup_key: "pro_monthly" }, current_period_start: end });
    expect(await userRow(userId)).toMatchObject({
      plan: "Pro",
      pending_plan: null,
      credits: before.credits + PLANS.Pro.credits,
    });
  });

  it("a cancel while it waits releases the schedule first: the plan then ends at the period end", async () => {
    const { userId, cookie, subscription } = await subscribedPro("interval-cancel");
    expect((await post("/billing/plan", { plan: "Basic", billing: "yearly" }, { cookie })).status).toBe(200);
    const schedule = String((await stripe.subscriptions.retrieve(subscription.id)).schedule);
    expect((await post("/billing/plan", { plan: "Free", billing: "monthly" }, { cookie })).status).toBe(200);
    expect(await stripe.subscriptionSchedules.retrieve(schedule)).toMatchObject({ status: "released" });
    const cancelling = await stripe.subscriptions.retrieve(subscription.id);
    expect(cancelling).toMatchObject({ cancel_at_period_end: true, schedule: null });
    expect(cancelling.items.data[0]?.price.lookup_key).toBe("pro_monthly");
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: "Free" });
  });
});
