import { localLedger } from "../../workers/local/ledger-clock";
import { ledger as ledgerClient } from "~/services/ledger.server";
import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { env } from "cloudflare:workers";
import type Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { saveCustomer } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { PLAN_PERIOD_MS } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { stripeFor } from "~/services/stripe.server";
import worker from "../../workers/app";
import { withStandIns, type LocalEnv } from "../../workers/local";
import { line, paidInvoice, price, stripeFixtures } from "../fixtures/stripe";
import { get, insertUser, ORIGIN, outbox, post, signIn } from "./helpers";
import { deliver, stripeHas, TEST_ADDRESS } from "./stand-in";

// The local Worker (wrangler.local.toml): the SDK talks to the stand-in object at the fetch boundary, whose objects are
// seeded here from fixtures typed as the SDK's own objects (API 2026-10-28). Events are signed with the SDK's test
// header helper and posted to /webhooks/stripe, as Stripe delivers them.

const db = getDb(env.DB);
const DAY = 86_400_000;
const PASSWORD = "Payments-test-1";

async function userRow(id: string) {
  return (await env.DB.prepare(
    "SELECT plan, pending_plan, credits, plan_period_start, plan_period_end FROM users WHERE id = ?",
  )
    .bind(id)
    .first()) as { plan: string; pending_plan: string | null; credits: number; plan_period_end: number | null };
}

const ledger = (userId: string) => ledgerClient(env, userId);

/** A Free creator with 100 credits, a Stripe customer, and a Basic monthly subscription in Stripe's books. */
async function subscriber(tag: string, opts: { yearly?: boolean; calendarMonth?: boolean } = {}) {
  const userId = await insertUser({ email: `${tag}@example.com`, password: PASSWORD });
  await saveCustomer(db, userId, `cus_${tag}`);
  const start = Math.floor((Date.now() - DAY) / 1000);
  // Stripe bills calendar months; most tests only need a period of about a month.
  const monthEnd = new Date(start * 1000);
  monthEnd.setUTCMonth(monthEnd.getUTCMonth() + 1);
  const end = opts.yearly
    ? start + 365 * 86_400
    : opts.calendarMonth
      ? Math.floor(monthEnd.getTime() / 1000)
      : start + 31 * 86_400;
  const f = stripeFixtures(tag, userId, { lookupKey: opts.yearly ? "basic_yearly" : "basic_monthly", start, end });
  await stripeHas(f.subscription, f.invoice);
  return { userId, f, start, end };
}

afterEach(async () => {
  // The ledger invariant after every test: balance = sum of rows, never negative.
  expect(await reconcile(db)).toEqual([]);
});

describe("Stripe webhook", () => {
  it("refuses a bad signature with 400 and changes nothing", async () => {
    const { userId, f } = await subscriber("badsig");
    const before = await userRow(userId);
    const forged = await deliver("invoice.paid", f.invoice, { secret: "whsec_not_ours" });
    expect(forged.status).toBe(400);
    const unsigned = await exports.default.fetch(
      new Request(`${ORIGIN}/webhooks/stripe`, { method: "POST", body: JSON.stringify({ type: "invoice.paid" }) }),
    );
    expect(unsigned.status).toBe(400);
    expect(await userRow(userId)).toEqual(before);
    expect(
      (await env.DB.prepare("SELECT count(*) n FROM billing_payments WHERE user_id = ?").bind(userId).first())?.n,
    ).toBe(0);
  });

  it("a first paid invoice makes a Free creator Basic with the month's credits; the same event twice grants once", async () => {
    const { userId, f, end } = await subscriber("create");
    const first = await deliver("invoice.paid", f.invoice, { id: "evt_same_create" });
    expect(first.status).toBe(200);
    const again = await deliver("invoice.paid", f.invoice, { id: "evt_same_create" });
    expect(await again.json()).toMatchObject({ duplicate: true });
    // A different event about the same invoice (Stripe may send both) is keyed by the invoice: still once.
    expect((await deliver("invoice.paid", f.invoice)).status).toBe(200);
    const user = await userRow(userId);
    expect(user).toMatchObject({ plan: "Basic", pending_plan: null, credits: 600, plan_period_end: end * 1000 });
    const payment = await env.DB.prepare("SELECT * FROM billing_payments WHERE user_id = ?").bind(userId).first();
    expect(payment).toMatchObject({
      amount_cents: 1500,
      status: "paid",
      credits: 500,
      payment_intent_id: `pi_create_invoice`,
    });
  });

  it("an invoice whose metadata names a bigger plan grants only what its lines charged for", async () => {
    const { userId, f } = await subscriber("metaplan");
    // Metadata is anyone's to write (ours, an integration's, a stand-in's): a plan named there moves nothing.
    const claimed = { ...f.subscription.metadata, clipcut_plan: "Pro", plan: "Pro", credits: "10000" };
    const invoice: Stripe.Invoice = {
      ...f.invoice,
      metadata: claimed,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: f.subscription.id, metadata: claimed },
      },
    };
    await stripeHas({ ...f.subscription, metadata: claimed }, invoice);
    expect((await deliver("invoice.paid", invoice)).status).toBe(200);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 100 + 500 });
    const payment = await env.DB.prepare("SELECT credits FROM billing_payments WHERE id = ?").bind(invoice.id).first();
    expect(payment).toEqual({ credits: 500 });
  });

  it("applies events out of order: the object is re-read, so a stale snapshot changes nothing", async () => {
    const { userId, f } = await subscriber("order");
    // The subscription was cancelled meanwhile; an old "updated" snapshot still says active.
    const stale = structuredClone(f.subscription);
    await stripeHas({ ...f.subscription, status: "canceled", canceled_at: Math.floor(Date.now() / 1000) });
    expect((await deliver("customer.subscription.updated", stale)).status).toBe(200);
    expect((await userRow(userId)).plan).toBe("Free");
    // invoice.paid before any subscription event: the subscription is read first, then the grant.
    const { userId: other, f: g } = await subscriber("order2");
    expect((await deliver("invoice.paid", g.invoice)).status).toBe(200);
    expect((await deliver("customer.subscription.created", g.subscription)).status).toBe(200);
    expect(await userRow(other)).toMatchObject({ plan: "Basic", credits: 600 });
  });

  /** Basic → Pro at `at` (seconds), invoiced as Stripe prorates: unused Basic credited, remaining Pro charged. */
  async function upgradeAt(tag: string, at: (period: { start: number; end: number }) => number) {
    const { userId, f, start, end } = await subscriber(tag, { calendarMonth: true });
    await deliver("invoice.paid", f.invoice);
    const item = f.subscription.items.data[0]!;
    const basic = item.price;
    const pro = price("pro_monthly");
    item.price = pro;
    const t = at({ start, end });
    const unused = (end - t) / (end - start);
    const id = `in_${tag}_proration`;
    const prorated = (p: Stripe.Price, amount: number) =>
      line({ tag, invoice: id, price: p, amount, period: { start: t, end }, proration: true });
    const proration = paidInvoice({
      tag,
      id,
      number: "F1X-0002",
      billingReason: "subscription_update",
      created: t,
      metadata: f.subscription.metadata,
      lines: [prorated(basic, -Math.round(1500 * unused)), prorated(pro, Math.round(6900 * unused))],
      paymentIntent: `pi_${tag}_proration`,
    });
    await stripeHas(f.subscription, proration);
    expect((await deliver("customer.subscription.updated", f.subscription)).status).toBe(200);
    expect((await userRow(userId)).plan).toBe("Pro");
    expect((await deliver("invoice.paid", proration)).status).toBe(200);
    // The ledger's clock reaches the upgrade (the test dates it ahead of now): the new plan's time has begun.
    expect((await localLedger(env, userId).advanceClock(userId, t * 1000)).ok).toBe(true);
    return { userId, charged: proration.amount_paid, hours: (end - start) / 3600 };
  }

  it("an upgrade one hour before renewal grants what it paid for (about 1/720 of the difference), not a month", async () => {
    const { userId, charged, hours } = await upgradeAt("lateup", ({ end }) => end - 3600);
    expect(charged).toBeLessThan(10); // Stripe charged a few cents
    const share = Math.round(9500 / hours); // 13 in a 30-day month
    expect(share).toBeLessThan(15);
    const row = await userRow(userId);
    expect(row).toMatchObject({ plan: "Pro", pending_plan: null });
    // Pro's hour granted, Basic's unused hour taken back: what the cents paid for, within a credit of rounding.
    expect(Math.abs(row.credits - (100 + 500 + share))).toBeLessThanOrEqual(1);
    const payment = (await env.DB.prepare("SELECT credits FROM billing_payments WHERE id = ?")
      .bind("in_lateup_proration")
      .first()) as { credits: number };
    expect(Math.abs(payment.credits - Math.round(10_000 / hours))).toBeLessThanOrEqual(1);
  });

  it("an upgrade halfway through the month grants about half of the difference", async () => {
    const { userId } = await upgradeAt("halfup", ({ start, end }) => Math.floor((start + end) / 2));
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", credits: 100 + 500 + 4750 });
  });

  it("a downgrade waits for the period end; the renewal there grants the lower plan once", async () => {
    const { userId, f, end } = await subscriber("down");
    await deliver("invoice.paid", f.invoice);
    // A Pro subscription scheduled down to Basic: the price is Basic, Pro is paid for until the period end.
    f.subscription.metadata = {
      ...f.subscription.metadata,
      clipcut_paid_plan: "Pro",
      clipcut_paid_until: String(end * 1000),
    };
    await stripeHas(f.subscription);
    await deliver("customer.subscription.updated", f.subscription);
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: "Basic" });
    // Period end: the renewal alarm credits nothing for a subscriber — the month after is Stripe's to invoice.
    const renewed = await localLedger(env, userId).advanceClock(userId, end * 1000 + 1);
    expect(renewed.ok).toBe(true);
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: "Basic", credits: 600 });
    // Stripe's paid renewal invoice for the next period grants the lower plan's month, once.
    const cycle: Stripe.Invoice = {
      ...structuredClone(f.invoice),
      id: "in_down_cycle",
      billing_reason: "subscription_cycle",
    };
    cycle.lines.data[0] = { ...cycle.lines.data[0]!, id: "il_down_cycle", invoice: "in_down_cycle" };
    cycle.lines.data[0].period = { start: end, end: end + 31 * 86_400 };
    const next = structuredClone(f.subscription);
    next.items.data[0]!.current_period_start = end;
    next.items.data[0]!.current_period_end = end + 31 * 86_400;
    await stripeHas(cycle, next);
    expect((await deliver("invoice.paid", cycle)).status).toBe(200);
    expect((await deliver("invoice.paid", cycle)).status).toBe(200);
    // Its month begins at the period end (the ledger's clock is moved there): granted once.
    await localLedger(env, userId).advanceClock(userId, end * 1000 + 2);
    await localLedger(env, userId).advanceClock(userId, end * 1000 + 3);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", pending_plan: null, credits: 1100 });
  });

  it("a subscriber whose renewal is not paid gets no credit months from the alarm, however long it stays past due", async () => {
    const { userId, f, end } = await subscriber("pastdue");
    await deliver("invoice.paid", f.invoice);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });
    // The renewal fails: Stripe moves the period on and keeps the subscription past due.
    const pastDue = structuredClone(f.subscription);
    pastDue.status = "past_due";
    pastDue.items.data[0]!.current_period_start = end;
    pastDue.items.data[0]!.current_period_end = end + 31 * 86_400;
    await stripeHas(pastDue);
    expect((await deliver("customer.subscription.updated", pastDue)).status).toBe(200);
    for (const months of [0, 1, 2])
      await localLedger(env, userId).advanceClock(userId, (end + months * 31 * 86_400) * 1000 + 1);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });
    // Paid at last: that invoice grants the month it paid for, once.
    const cycle: Stripe.Invoice = {
      ...structuredClone(f.invoice),
      id: "in_pastdue_cycle",
      billing_reason: "subscription_cycle",
    };
    cycle.lines.data[0] = { ...cycle.lines.data[0]!, id: "il_pastdue_cycle", invoice: "in_pastdue_cycle" };
    cycle.lines.data[0].period = { start: end, end: end + 31 * 86_400 };
    await stripeHas(cycle, { ...pastDue, status: "active" });
    expect((await deliver("invoice.paid", cycle)).status).toBe(200);
    await localLedger(env, userId).advanceClock(userId, (end + 2 * 31 * 86_400) * 1000 + 2);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 1100 });
  });

  it("a cancel keeps the plan to the period end; Stripe's deletion makes it Free", async () => {
    const { userId, f } = await subscriber("cancel");
    await deliver("invoice.paid", f.invoice);
    await stripeHas({ ...f.subscription, cancel_at_period_end: true });
    await deliver("customer.subscription.updated", f.subscription);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", pending_plan: "Free", credits: 600 });
    await stripeHas({ ...f.subscription, status: "canceled", cancel_at_period_end: true });
    await deliver("customer.subscription.deleted", f.subscription);
    expect(await userRow(userId)).toMatchObject({
      plan: "Free",
      pending_plan: null,
      plan_period_end: null,
      credits: 600,
    });
  });

  it("a failed payment is told on /billing and by e-mail; the plan stays", async () => {
    const { userId, f } = await subscriber("failed");
    await deliver("invoice.paid", f.invoice);
    const open = {
      ...structuredClone(f.invoice),
      id: "in_failed_cycle",
      number: "F1X-0002",
      status: "open",
      billing_reason: "subscription_cycle",
      amount_paid: 0,
      payments: { object: "list", data: [], has_more: false, url: "/v1/invoices/in_failed_cycle/payments" },
    } satisfies Stripe.Invoice;
    await stripeHas(open, { ...f.subscription, status: "past_due" });
    expect((await deliver("invoice.payment_failed", open)).status).toBe(200);
    expect((await deliver("customer.subscription.updated", f.subscription)).status).toBe(200);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });
    const mail = (await outbox()).filter((m) => m.to === "failed@example.com");
    expect(mail.map((m) => m.subject)).toEqual(["Your ClipCut payment failed"]);
    const cookie = await signIn("failed@example.com", PASSWORD);
    const page = await (await get("/billing", { cookie })).text();
    expect(page).toContain("Your last payment failed (invoice <!-- -->F1X-0002");
    expect(page).toContain("$15.00");
  });

  it("a pack is granted once; a refund takes back only the unspent credits, never below zero", async () => {
    const { userId, f } = await subscriber("pack");
    await stripeHas(f.packSession, f.packLineItems);
    await deliver("checkout.session.completed", f.packSession);
    await deliver("checkout.session.completed", f.packSession);
    expect((await userRow(userId)).credits).toBe(600);
    // Spend 550 of the 600: 50 left, so a full refund of the 500-credit pack takes back 50.
    const adjust = await ledger(userId).adjust({
      key: "spend",
      newBalance: 50,
      actorId: userId,
      reason: "spent",
    });
    expect(adjust.ok).toBe(true);
    await stripeHas(f.charge, f.refund);
    expect((await deliver("charge.refunded", f.charge)).status).toBe(200);
    expect((await userRow(userId)).credits).toBe(0);
    const row = await env.DB.prepare(
      "SELECT delta, description FROM credit_ledger WHERE user_id = ? AND kind = 'payment_refund'",
    )
      .bind(userId)
      .first();
    expect(row).toEqual({
      delta: -50,
      description:
        "Payment refunded (money-back guarantee): 50 credits taken back (Credit pack: 500 credits, pi_pack_pack), 450 already spent",
    });
    const payment = await env.DB.prepare("SELECT status, refunded_cents FROM billing_payments WHERE id = ?")
      .bind("pi_pack_pack")
      .first();
    expect(payment).toEqual({ status: "refunded", refunded_cents: 1000 });
  });

  it("a refund of unspent credits takes them all back, once", async () => {
    const { userId, f } = await subscriber("unspent");
    await stripeHas(f.packSession, f.packLineItems, f.charge, f.refund);
    await deliver("checkout.session.completed", f.packSession);
    expect((await userRow(userId)).credits).toBe(600);
    await deliver("charge.refunded", f.charge);
    await deliver("charge.refunded", f.charge);
    expect((await userRow(userId)).credits).toBe(100);
  });

  it("a yearly plan is credited every month by the renewal alarm, twelve times in its year", async () => {
    const { userId, f, start, end } = await subscriber("yearly", { yearly: true });
    await deliver("invoice.paid", f.invoice);
    const first = await userRow(userId);
    expect(first).toMatchObject({ plan: "Basic", credits: 600 });
    // The credit months are counted back from the year's end: the last one ends exactly on it.
    expect((end * 1000 - (first.plan_period_end ?? 0)) % PLAN_PERIOD_MS).toBe(0);
    let at = first.plan_period_end ?? 0;
    let grants = 1;
    while (at < end * 1000) {
      await localLedger(env, userId).advanceClock(userId, at);
      grants += 1;
      at = (await userRow(userId)).plan_period_end ?? Infinity;
    }
    expect(grants).toBe(12);
    expect(start * 1000 < at).toBe(true);
    expect((await userRow(userId)).credits).toBe(100 + 12 * 500);
  });
});

describe("local checkout and plan changes (the stand-in behind the SDK)", () => {
  it("a Free creator subscribes with 4242…, upgrades at once, and a declined card changes nothing", async () => {
    const userId = await insertUser({ email: "checkout@example.com", password: PASSWORD });
    const cookie = await signIn("checkout@example.com", PASSWORD);
    const started = await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie });
    expect(started.status).toBe(302);
    const checkout = new URL(started.headers.get("Location") ?? "").pathname;
    expect(checkout).toMatch(/^\/dev\/stripe\/checkout\/cs_test_/);
    const page = await (await get(checkout, { cookie })).text();
    expect(page).toContain("$15.00");
    expect(page).toContain("Pay and subscribe");

    const declined = await post(checkout, { cardNumber: "4000 0000 0000 0002", ...TEST_ADDRESS }, { cookie });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    expect(await userRow(userId)).toMatchObject({ plan: "Free", credits: 100 });

    const paid = await post(checkout, { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS }, { cookie });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toContain("/billing/plan?checkout=success&plan=Basic");
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });
    expect(await (await get("/billing/plan?checkout=success&plan=Basic", { cookie })).text()).toContain(
      "Successfully changed plan to Basic!",
    );
    const billing = await (await get("/billing", { cookie })).text();
    expect(billing).toContain("$15.00");
    expect(billing).toContain("Paid");
    expect(billing).toContain("ending in <!-- -->4242");

    const upgraded = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
    expect(upgraded.status).toBe(200);
    expect(await upgraded.text()).toContain("Successfully changed plan to Pro!");
    // How many credits an upgrade grants follows from what its invoice charged (the billing rules' tests).
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: null });

    const down = await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie });
    expect(await down.text()).toContain("Successfully changed plan to Basic! It takes effect at the end");
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", pending_plan: "Basic" });
  });
});

describe("one plan subscription per user", () => {
  const checkoutOf = (res: Response) => new URL(res.headers.get("Location") ?? "").pathname;

  it("a second checkout tab expires the first: only one open plan checkout can be paid", async () => {
    const userId = await insertUser({ email: "twotabs@example.com", password: PASSWORD });
    const cookie = await signIn("twotabs@example.com", PASSWORD);
    const basic = checkoutOf(await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie }));
    // The same plan again (a double click, a reload) reuses the open checkout.
    expect(checkoutOf(await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie }))).toBe(basic);
    const pro = checkoutOf(await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie }));
    expect(pro).not.toBe(basic);
    expect((await post(pro, { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS }, { cookie })).status).toBe(302);
    const late = await post(basic, { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS }, { cookie });
    expect(late.status).not.toBe(302);
    expect(await late.text()).toContain("This checkout is no longer open.");
    expect(await userRow(userId)).toMatchObject({ plan: "Pro", credits: 100 + 10000 });
    const subs = await env.DB.prepare("SELECT status FROM billing_subscriptions WHERE user_id = ?").bind(userId).all();
    expect(subs.results).toEqual([{ status: "active" }]);
  });

  it("two checkouts that both complete: the second subscription is cancelled, refunded in full, and the user told", async () => {
    const userId = await insertUser({ email: "race@example.com", password: PASSWORD });
    const cookie = await signIn("race@example.com", PASSWORD);
    const basic = checkoutOf(await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie }));
    // The race the expiry cannot close: a second session created beside the first (two requests at once).
    const customer = (await env.DB.prepare("SELECT customer_id FROM billing_customers WHERE user_id = ?")
      .bind(userId)
      .first()) as { customer_id: string };
    const local = stripeFor(withStandIns(env as LocalEnv, ORIGIN, createExecutionContext())).stripe;
    const [price] = (await local.prices.list({ lookup_keys: ["pro_monthly"] })).data;
    const second = await local.checkout.sessions.create({
      mode: "subscription",
      customer: customer.customer_id,
      line_items: [{ price: price!.id, quantity: 1 }],
      metadata: { user_id: userId, plan: "Pro", billing: "monthly" },
      success_url: `${ORIGIN}/billing/plan?checkout=success&plan=Pro`,
      cancel_url: `${ORIGIN}/billing/plan`,
    });
    expect((await post(basic, { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS }, { cookie })).status).toBe(302);
    expect(
      (
        await post(
          checkoutOf(new Response(null, { headers: { Location: second.url! } })),
          { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS },
          { cookie },
        )
      ).status,
    ).toBe(302);
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", pending_plan: null, credits: 100 + 500 });
    const subs = await env.DB.prepare("SELECT plan, status FROM billing_subscriptions WHERE user_id = ? ORDER BY plan")
      .bind(userId)
      .all();
    expect(subs.results).toEqual([
      { plan: "Basic", status: "active" },
      { plan: "Pro", status: "canceled" },
    ]);
    const payments = await env.DB.prepare(
      "SELECT amount_cents, refunded_cents, status, credits FROM billing_payments WHERE user_id = ? ORDER BY amount_cents",
    )
      .bind(userId)
      .all();
    expect(payments.results).toEqual([
      { amount_cents: 1500, refunded_cents: 0, status: "paid", credits: 500 },
      { amount_cents: 6900, refunded_cents: 6900, status: "refunded", credits: 0 },
    ]);
    const mail = (await outbox()).filter((m) => m.to === "race@example.com");
    expect(mail.map((m) => m.subject)).toContain("We cancelled a second ClipCut subscription");
  });
});

describe("money-back guarantee and revenue", () => {
  it("an admin refunds a payment through Stripe; unspent credits come back out; revenue is paid less refunded", async () => {
    const userId = await insertUser({ email: "refundme@example.com", password: PASSWORD });
    await insertUser({ email: "boss@example.com", password: PASSWORD, role: "admin" });
    const cookie = await signIn("refundme@example.com", PASSWORD);
    const checkout = (await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie })).headers.get(
      "Location",
    );
    await post(new URL(checkout ?? "").pathname, { cardNumber: "4242424242424242", ...TEST_ADDRESS }, { cookie });
    expect(await userRow(userId)).toMatchObject({ plan: "Basic", credits: 600 });

    const admin = await signIn("boss@example.com", PASSWORD);
    // Other tests of this file paid too: compare the figure before and after, in dollars as the card shows it.
    const revenue = async () => {
      const html = await (await get("/admin", { cookie: admin })).text();
      return Number(/data-testid="total-revenue">\$([\d,.]+)</.exec(html)?.[1]?.replace(/,/g, ""));
    };
    const before = await revenue();
    expect(before).toBeGreaterThanOrEqual(15);
    const page = await (await get(`/admin/users/${userId}/payments`, { cookie: admin })).text();
    expect(page).toContain("$15.00");
    const paymentId = (await env.DB.prepare("SELECT id FROM billing_payments WHERE user_id = ?").bind(userId).first())
      ?.id as string;
    const noReason = await post(`/admin/users/${userId}/payments`, { paymentId, reason: "" }, { cookie: admin });
    expect(noReason.status).toBe(400);
    // Money leaves: the admin's password first (step-up), and a wrong one moves nothing.
    const noPassword = await post(`/admin/users/${userId}/payments`, { paymentId, reason: "asked" }, { cookie: admin });
    expect(noPassword.status).toBe(401);
    expect(await noPassword.text()).toContain("Enter your password to confirm this change.");
    const wrongPassword = await post(
      `/admin/users/${userId}/payments`,
      { paymentId, reason: "asked", currentPassword: "not the password" },
      { cookie: admin },
    );
    expect(wrongPassword.status).toBe(401);
    expect((await userRow(userId)).credits).toBe(600);
    const refunded = await post(
      `/admin/users/${userId}/payments`,
      { paymentId, reason: "asked within 14 days", currentPassword: PASSWORD },
      { cookie: admin },
    );
    expect(refunded.status).toBe(200);
    expect(await refunded.text()).toContain("Refund of $15.00 sent to Stripe for 500 unspent credits");
    // The 500 plan credits were unspent: all taken back; the plan itself follows the subscription, not the refund.
    expect((await userRow(userId)).credits).toBe(100);
    const again = await post(`/admin/users/${userId}/payments`, { paymentId, reason: "twice" }, { cookie: admin });
    expect(again.status).toBe(409);
    expect((await userRow(userId)).credits).toBe(100);
    expect(await revenue()).toBe(before - 15);
    const notAdmin = await post(`/admin/users/${userId}/payments`, { paymentId, reason: "sneaky" }, { cookie });
    expect(notAdmin.status).toBe(302);
  });
});

describe("money-back guarantee returns only unspent value", () => {
  it("a $10 pack whose credits were mostly spent refunds only the unspent share; the spent clips are not paid back", async () => {
    const userId = await insertUser({ email: "spender@example.com", password: PASSWORD });
    await insertUser({ email: "cashier@example.com", password: PASSWORD, role: "admin" });
    const cookie = await signIn("spender@example.com", PASSWORD);
    const checkout = (await post("/billing/packs", { pack: "credits_500" }, { cookie })).headers.get("Location");
    expect(
      (await post(new URL(checkout ?? "").pathname, { cardNumber: "4242424242424242", ...TEST_ADDRESS }, { cookie }))
        .status,
    ).toBe(302);
    expect((await userRow(userId)).credits).toBe(600);
    // 300 credits of clips made: 300 left, all counted as the pack's.
    expect((await ledger(userId).adjust({ key: "clips", newBalance: 300, actorId: userId, reason: "clips" })).ok).toBe(
      true,
    );
    const admin = await signIn("cashier@example.com", PASSWORD);
    const paymentId = (await env.DB.prepare("SELECT id FROM billing_payments WHERE user_id = ?").bind(userId).first())
      ?.id as string;
    const refunded = await post(
      `/admin/users/${userId}/payments`,
      { paymentId, reason: "asked", currentPassword: PASSWORD },
      { cookie: admin },
    );
    expect(refunded.status).toBe(200);
    const text = await refunded.text();
    expect(text).toContain("Refund of $6.00 sent to Stripe for 300 unspent credits");
    expect(text).toContain("200 credits of it were already spent and are not refunded.");
    expect(await userRow(userId)).toMatchObject({ credits: 0 });
    const payment = await env.DB.prepare("SELECT status, refunded_cents FROM billing_payments WHERE id = ?")
      .bind(paymentId)
      .first();
    expect(payment).toEqual({ status: "partially_refunded", refunded_cents: 600 });
    // Nothing unspent is left: a second refund is refused and moves no money.
    const again = await post(`/admin/users/${userId}/payments`, { paymentId, reason: "again" }, { cookie: admin });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain("were spent, so no unspent value is left to refund");
  });
});

describe("configuration", () => {
  it("production without Stripe's secrets refuses to serve, naming what is missing; with them it serves", async () => {
    const { STRIPE_SECRET_KEY: _key, STRIPE_WEBHOOK_SECRET: _secret, ...unconfigured } = env as AppEnv;
    const production = { ...unconfigured, APP_MODE: "production" } as AppEnv;
    const request = () => new Request("https://clipcut.example/pricing") as Parameters<typeof worker.fetch>[0];
    const refused = await worker.fetch(request(), production, createExecutionContext());
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain("set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
    const configured = { ...production, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };
    expect((await worker.fetch(request(), configured, createExecutionContext())).status).toBe(200);
  });
});
