import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { customerIdOf, runningSubscription } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { stripeFor, type Stripe } from "~/services/stripe.server";
import production from "../../workers/app";
import local, { withStandIns, type LocalEnv } from "../../workers/local";
import { get, insertUser, ORIGIN, post, signIn } from "./helpers";
import { TEST_ADDRESS } from "./stand-in";

const db = getDb(env.DB);
const PASSWORD = "Stand-in-test-1";
const HOUR = 3600;
type IncomingRequest = Parameters<typeof production.fetch>[0];
const request = (path: string) => new Request(`${ORIGIN}${path}`) as IncomingRequest;

/** The SDK as the app builds it, through the local Worker's stand-in. */
const sdk = () => stripeFor(withStandIns(env as LocalEnv, ORIGIN, createExecutionContext())).stripe;

async function userRow(id: string) {
  return env.DB.prepare("SELECT plan, pending_plan, credits FROM users WHERE id = ?")
    .bind(id)
    .first<{ plan: string; pending_plan: string | null; credits: number }>();
}

/** A creator who paid Basic monthly on the stand-in checkout, then saved `card` in the portal. */
async function basicSubscriber(tag: string, card: string) {
  const userId = await insertUser({ email: `${tag}@example.com`, password: PASSWORD });
  const cookie = await signIn(`${tag}@example.com`, PASSWORD);
  const checkout = (await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie })).headers.get(
    "Location",
  );
  const paid = await post(
    new URL(checkout ?? "").pathname,
    { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS },
    { cookie },
  );
  expect(paid.status).toBe(302);
  const portal = (await post("/billing", { intent: "portal" }, { cookie })).headers.get("Location");
  expect(portal).toMatch(/\/dev\/stripe\/portal\/bps_/);
  const saved = await post(new URL(portal ?? "").pathname, { intent: "card", cardNumber: card }, { cookie });
  expect(saved.status).toBe(302);
  expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });
  const subscriptionId = (await runningSubscription(db, userId))?.id ?? "";
  return { userId, cookie, subscriptionId };
}

describe("dev routes", () => {
  it("answer 404 without the local binding, and the production Worker has none even in local mode", async () => {
    for (const path of ["/dev/outbox", "/dev/stripe/checkout/cs_test_x", "/dev/stripe/portal/bps_x", "/dev/"]) {
      const { STAND_IN: _binding, ...withoutBinding } = env as LocalEnv;
      const unbound = await local.fetch(request(path), withoutBinding, createExecutionContext());
      expect(unbound.status, `${path} without STAND_IN`).toBe(404);
      const deployed = await production.fetch(
        request(path),
        { ...env, APP_MODE: "local" } as AppEnv,
        createExecutionContext(),
      );
      expect(deployed.status, `${path} in the production Worker`).toBe(404);
    }
    expect((await local.fetch(request("/dev/outbox"), env as LocalEnv, createExecutionContext())).status).toBe(200);
  });
});

describe("the Stripe stand-in", () => {
  it("replays a request with the same Idempotency-Key and refuses the key with other parameters", async () => {
    const stripe = sdk();
    const first = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "customer:idem" });
    const again = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "customer:idem" });
    expect(again.id).toBe(first.id);
    await expect(
      stripe.customers.create({ email: "other@example.com" }, { idempotencyKey: "customer:idem" }),
    ).rejects.toMatchObject({ type: "StripeIdempotencyError", statusCode: 400 });
    const fresh = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "customer:idem2" });
    expect(fresh.id).not.toBe(first.id);
  });

  it("a Checkout Session is Stripe's object: no price or subscription_data on it, line items only on request", async () => {
    const stripe = sdk();
    const customer = await stripe.customers.create({ email: "session-shape@example.com" });
    const [price] = (await stripe.prices.list({ lookup_keys: ["basic_monthly"] })).data;
    const created = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: price!.id, quantity: 1 }],
      subscription_data: { metadata: { user_id: "someone" } },
      success_url: `${ORIGIN}/billing/plan`,
    });
    const session = await stripe.checkout.sessions.retrieve(created.id);
    for (const field of ["price", "subscription_data", "line_items"]) expect(session).not.toHaveProperty(field);
    expect(session).toMatchObject({ object: "checkout.session", mode: "subscription", amount_total: 1500 });
  });

  it("a declined upgrade leaves the old plan and a pending update that expires after 23 hours", async () => {
    // 4000 0000 0000 0341: saved fine, declined when charged.
    const { userId, cookie, subscriptionId } = await basicSubscriber("declined-up", "4000 0000 0000 0341");
    await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", pending_plan: null, credits: 600 });

    const stripe = sdk();
    const sub = await stripe.subscriptions.retrieve(subscriptionId, { expand: ["latest_invoice"] });
    expect(sub.items.data[0]?.price.lookup_key).toBe("basic_monthly");
    expect(sub.pending_update?.subscription_items?.[0]?.price.lookup_key).toBe("pro_monthly");
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: "open", billing_reason: "subscription_update", amount_paid: 0 });
    // The upgrade invoice carries its proration and not the plan it is for: that is the subscription's, once paid.
    const lines = invoice.lines.data.map((l) => ({
      amount: l.amount,
      proration: l.parent?.subscription_item_details?.proration,
      end: l.period.end,
    }));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ proration: true, end: sub.items.data[0]?.current_period_end });
    expect(lines[0]!.amount).toBeLessThan(0);
    expect(lines[1]!.amount).toBeGreaterThan(0);
    expect(invoice.amount_due).toBe(lines[0]!.amount + lines[1]!.amount);
    expect(invoice.parent?.subscription_details?.metadata?.clipcut_plan).not.toBe("Pro");

    // The customer's test clock (the stand-in gives every customer one) moves past the update's expiry.
    const customer = await stripe.customers.retrieve(String(sub.customer));
    const clock = await stripe.testHelpers.testClocks.retrieve(String(!customer.deleted && customer.test_clock));
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: clock.frozen_time + 23 * HOUR + 1 });
    const expired = await stripe.subscriptions.retrieve(subscriptionId);
    expect(expired.pending_update).toBeNull();
    expect(expired.items.data[0]?.price.lookup_key).toBe("basic_monthly");
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe("void");
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });
  });

  it("an upgrade with a card that needs 3-D Secure waits for the customer, then applies once paid", async () => {
    const { userId, cookie, subscriptionId } = await basicSubscriber("three-ds", "4000 0027 6000 3184");
    await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
    expect(await userRow(userId)).toMatchObject({ plan: "Basic" });
    const stripe = sdk();
    const sub = await stripe.subscriptions.retrieve(subscriptionId, { expand: ["latest_invoice"] });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(sub.pending_update).not.toBeNull();
    expect(invoice.hosted_invoice_url).toMatch(/\/dev\/stripe\/invoice\/in_/);
    const page = new URL(invoice.hosted_invoice_url ?? "").pathname;
    expect(await (await get(page, { cookie })).text()).toContain("Complete authentication");
    const failed = await post(page, { outcome: "fail" }, { cookie });
    expect(failed.status).toBe(402);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic" });
    const done = await post(page, { outcome: "complete" }, { cookie });
    expect(done.status).toBe(302);
    const applied = await stripe.subscriptions.retrieve(subscriptionId);
    expect(applied.pending_update).toBeNull();
    expect(applied.items.data[0]?.price.lookup_key).toBe("pro_monthly");
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe("paid");
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: null });
  });

  it("a pending upgrade is explained on /billing/plan: what happened, the plan kept, and what to do", async () => {
    const threeDs = await basicSubscriber("pending-3ds", "4000 0027 6000 3184");
    const asked = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie: threeDs.cookie });
    expect(asked.status).toBe(402);
    expect(await asked.text()).toContain("Your upgrade to Pro is waiting for your bank.");
    const waiting = await (await get("/billing/plan", { cookie: threeDs.cookie })).text();
    expect(waiting).toContain("Your upgrade to Pro is waiting for your bank.");
    expect(waiting).toContain("(3-D Secure). You stay on Basic until you do; nothing has been charged.");
    expect(waiting).toMatch(/href="[^"]*\/dev\/stripe\/invoice\/in_\w+"[^>]*>Confirm the payment</);

    const declined = await basicSubscriber("pending-declined", "4000 0000 0000 0341");
    const refused = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie: declined.cookie });
    expect(refused.status).toBe(402);
    expect(await refused.text()).not.toContain("Successfully changed plan");
    const page = await (await get("/billing/plan", { cookie: declined.cookie })).text();
    expect(page).toContain("Your upgrade to Pro did not go through.");
    expect(page).toContain("Your card was declined, so you stay on Basic and nothing was charged.");
    expect(page).toContain("Update your card");
    expect(page).toMatch(/href="[^"]*\/dev\/stripe\/invoice\/in_\w+"[^>]*>Pay the upgrade invoice</);
    expect(await userRow(declined.userId)).toMatchObject({ plan: "Basic", pending_plan: null, credits: 600 });

    // A subscriber with nothing pending sees no notice.
    const settled = await basicSubscriber("pending-none", "4242 4242 4242 4242");
    expect(await (await get("/billing/plan", { cookie: settled.cookie })).text()).not.toContain("pending-upgrade");
  });

  it("hosted pages of another customer are not found", async () => {
    const { cookie } = await basicSubscriber("owner-pages", "4242 4242 4242 4242");
    await insertUser({ email: "snoop@example.com", password: PASSWORD });
    const snoop = await signIn("snoop@example.com", PASSWORD);
    const portal = (await post("/billing", { intent: "portal" }, { cookie })).headers.get("Location");
    expect((await get(new URL(portal ?? "").pathname, { cookie: snoop })).status).toBe(404);
    expect(await customerIdOf(db, "nobody")).toBeNull();
  });
});

describe("the local user fixture", () => {
  it("a fixture user with a paid plan bought it: a paid subscription, its month's credits, nothing set by hand", async () => {
    const body = new URLSearchParams({ email: "fixture-pro@example.com", password: PASSWORD, plan: "Pro" });
    const res = await local.fetch(
      new Request(`${ORIGIN}/dev/users`, { method: "POST", body }) as IncomingRequest,
      env as LocalEnv,
      createExecutionContext(),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { userId } = (await res.json()) as { userId: string };
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: null, credits: 100 + 10_000 });
    expect(await runningSubscription(db, userId)).toMatchObject({ plan: "Pro", status: "active" });
    const paid = await env.DB.prepare("SELECT amount_cents, status FROM billing_payments WHERE user_id = ?")
      .bind(userId)
      .all();
    expect(paid.results).toEqual([{ amount_cents: 6900, status: "paid" }]);
  });
});
