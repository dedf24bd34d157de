/**
 * Every event type Stripe sends for our account, replayed through `/webhooks/stripe` as Stripe signs it: each is
 * answered 2xx (400 only for a bad signature), acted on once however often it comes, and in any order. What is not
 * ours is answered 200 and recorded for an admin, never 5xx (Stripe would retry it for three days in vain).
 */
import { env } from "cloudflare:workers";
import type Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { saveCustomer } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { monthlyCredits } from "~/domain/plans";
import {
  chargeObject,
  disputeBalanceTransaction,
  disputeObject,
  refundObject,
} from "../../workers/local/stripe-objects";
import { stripeFixtures } from "../fixtures/stripe";
import { insertUser, outbox } from "./helpers";
import { deliver, stripeHas } from "./stand-in";

const db = getDb(env.DB);
const DAY = 86_400;

async function credits(userId: string) {
  const row = await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(userId).first<{ credits: number }>();
  return row?.credits;
}

async function alerts(kind: string) {
  const rows = await env.DB.prepare("SELECT kind, event_type, detail, user_id FROM billing_alerts WHERE kind = ?")
    .bind(kind)
    .all();
  return rows.results as { kind: string; event_type: string; detail: string; user_id: string | null }[];
}

/** A creator with 100 credits, a Stripe customer, and their fixtures (a Basic subscription, a pack and its charge). */
async function creator(tag: string) {
  const userId = await insertUser({ email: `${tag}@example.com`, password: "Events-test-1" });
  await saveCustomer(db, userId, `cus_${tag}`);
  const now = Math.floor(Date.now() / 1000);
  const f = stripeFixtures(tag, userId, { start: now - DAY, end: now + 30 * DAY });
  await stripeHas(f.subscription, f.invoice, f.packSession, f.packLineItems);
  return { userId, f };
}

/** A pack bought: 500 credits on top of the 100. */
async function withPack(tag: string) {
  const c = await creator(tag);
  expect((await deliver("checkout.session.completed", c.f.packSession)).status).toBe(200);
  expect(await credits(c.userId)).toBe(600);
  const charge: Stripe.Charge = { ...c.f.charge, amount_refunded: 0, refunded: false };
  await stripeHas(charge);
  return { ...c, charge };
}

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

describe("events about what is not ours are answered 200 and recorded", () => {
  it("an invoice of a customer with no ClipCut user (made in the Dashboard): 200, an alert, once", async () => {
    const f = stripeFixtures("stranger", "nobody", {});
    await stripeHas(f.subscription, f.invoice);
    const first = await deliver("invoice.paid", f.invoice, { id: "evt_stranger" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, unmatched: expect.stringContaining("No ClipCut user") });
    const again = await deliver("invoice.paid", f.invoice, { id: "evt_stranger" });
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect((await alerts("unmatched")).filter((a) => a.event_type === "invoice.paid")).toHaveLength(1);
  });

  it("a refund of a charge nobody of ours paid: 200, not 'not recorded yet' forever", async () => {
    const charge = chargeObject({
      id: "ch_foreign",
      customer: "cus_foreign",
      amount: 1000,
      created: Math.floor(Date.now() / 1000),
      description: "Made in another system",
      paymentIntent: "pi_foreign",
      paymentMethod: null,
      declined: false,
    });
    await stripeHas(charge);
    const res = await deliver("charge.refunded", charge);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ unmatched: expect.stringContaining("ch_foreign") });
  });

  it("an object this account does not have (Stripe answers 404): 200 and recorded", async () => {
    const f = stripeFixtures("ghost", "nobody", {});
    const res = await deliver("customer.subscription.updated", { ...f.subscription, id: "sub_not_in_this_account" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ unmatched: expect.stringContaining("no such object") });
  });

  it("a live event at a test key changes nothing and is recorded", async () => {
    const { userId, f } = await creator("livemode");
    const res = await deliver("invoice.paid", f.invoice, { livemode: true });
    expect(res.status).toBe(200);
    expect(await credits(userId)).toBe(100);
    expect((await alerts("unmatched")).some((a) => a.detail.includes("live event"))).toBe(true);
  });

  it("a bad signature is the only 400", async () => {
    const { f } = await creator("badsig");
    expect((await deliver("invoice.paid", f.invoice, { secret: "whsec_wrong" })).status).toBe(400);
  });
});

describe("refunds follow their status", () => {
  it("a pending refund takes the credits back at once; when it fails they come back; redelivery changes nothing", async () => {
    const { userId, f, charge } = await withPack("pending");
    const base = { amount: 1000, charge: charge.id, customer: `cus_pending`, paymentIntent: "pi_pending_pack" };
    const refund = (status: "pending" | "succeeded" | "failed") =>
      refundObject({ ...base, id: "re_pending", created: f.charge.created + 10, reason: null, metadata: {}, status });
    await stripeHas(refund("pending"));
    expect((await deliver("refund.created", refund("pending"))).status).toBe(200);
    expect((await deliver("charge.refund.updated", refund("pending"))).status).toBe(200);
    expect(await credits(userId)).toBe(100);
    // The creator is told once: the amount, the credits taken back, and that the plan stays.
    const told = (await outbox()).filter(
      (m) => m.to === "pending@example.com" && m.subject === "ClipCut refunded $10.00",
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain("500 credits it paid for were taken back");
    expect(told[0]!.text).toContain("Your plan stays as it is.");
    await stripeHas(refund("failed"));
    expect((await deliver("refund.failed", refund("failed"))).status).toBe(200);
    expect(await credits(userId)).toBe(600);
    // A stale "updated" snapshot delivered late: the refund is re-read (failed), so nothing is taken again.
    expect((await deliver("refund.updated", refund("pending"))).status).toBe(200);
    expect((await deliver("charge.refund.updated", refund("pending"))).status).toBe(200);
    expect(await credits(userId)).toBe(600);
  });

  it("a refund whose payment is ours but not recorded yet asks Stripe to retry (503), then applies in order", async () => {
    const { userId, f } = await creator("early");
    const charge = { ...f.charge, created: Math.floor(Date.now() / 1000) };
    await stripeHas(charge, f.refund);
    expect((await deliver("charge.refunded", charge)).status).toBe(503);
    expect((await deliver("checkout.session.completed", f.packSession)).status).toBe(200);
    expect((await deliver("charge.refunded", charge)).status).toBe(200);
    expect(await credits(userId)).toBe(100);
  });
});

describe("disputes", () => {
  async function dispute(tag: string, charge: Stripe.Charge, status: Stripe.Dispute.Status) {
    const created = charge.created + 100;
    const withdrawal = disputeBalanceTransaction({
      id: `txn_${tag}`,
      dispute: `dp_${tag}`,
      amount: 1000,
      created,
      withdrawn: true,
    });
    const d = {
      ...disputeObject({
        id: `dp_${tag}`,
        charge: charge.id,
        paymentIntent: `pi_${tag}_pack`,
        amount: 1000,
        created,
        reason: "fraudulent",
        withdrawal,
      }),
      status,
    };
    await stripeHas(d);
    return d;
  }

  it("an open dispute takes the unspent credits back and flags the account; a won one gives them back", async () => {
    const { userId, charge } = await withPack("dispute");
    expect((await deliver("charge.dispute.created", await dispute("dispute", charge, "needs_response"))).status).toBe(
      200,
    );
    expect(await credits(userId)).toBe(100);
    const flagged = await alerts("dispute");
    expect(flagged.find((a) => a.user_id === userId)?.detail).toContain("500 credits taken back");
    expect((await deliver("charge.dispute.closed", await dispute("dispute", charge, "won"))).status).toBe(200);
    expect(await credits(userId)).toBe(600);
  });

  it("a lost dispute keeps them taken back, and what was spent is shown to the admin", async () => {
    const { userId, charge } = await withPack("lost");
    const spent = await import("~/services/ledger.server").then((m) =>
      m.ledger(env, userId).adjust({ key: "spend", newBalance: 200, actorId: userId, reason: "clips" }),
    );
    expect(spent.ok).toBe(true);
    expect((await deliver("charge.dispute.closed", await dispute("lost", charge, "lost"))).status).toBe(200);
    expect(await credits(userId)).toBe(0);
    expect((await alerts("owed")).some((a) => a.user_id === userId && a.detail.includes("300 credits"))).toBe(true);
  });
});

describe("Checkout and invoices", () => {
  it("a pack paid by a delayed method is granted when the payment succeeds, once; a failed one e-mails", async () => {
    const { userId, f } = await creator("async");
    const unpaid = { ...f.packSession, payment_status: "unpaid" as const };
    await stripeHas(unpaid);
    expect((await deliver("checkout.session.completed", unpaid)).status).toBe(200);
    expect(await credits(userId)).toBe(100);
    await stripeHas(f.packSession);
    expect((await deliver("checkout.session.async_payment_succeeded", f.packSession)).status).toBe(200);
    expect((await deliver("checkout.session.async_payment_succeeded", f.packSession)).status).toBe(200);
    expect(await credits(userId)).toBe(600);
    expect((await deliver("checkout.session.async_payment_failed", f.packSession)).status).toBe(200);
    expect((await outbox()).some((m) => m.subject === "Your ClipCut credit pack was not paid")).toBe(true);
    expect((await deliver("checkout.session.expired", f.packSession)).status).toBe(200);
  });

  it("a renewal that needs 3-D Secure e-mails the hosted invoice link", async () => {
    const { f } = await creator("sca");
    const open: Stripe.Invoice = {
      ...f.invoice,
      status: "open",
      billing_reason: "subscription_cycle",
      hosted_invoice_url: "https://invoice.stripe.com/i/sca",
    };
    await stripeHas(open);
    expect((await deliver("invoice.payment_action_required", open)).status).toBe(200);
    const mail = (await outbox()).find((m) => m.subject === "Confirm your ClipCut payment");
    expect(mail?.text).toContain("https://invoice.stripe.com/i/sca");
  });

  it("a declined upgrade says the upgrade was not made and the plan stays (not 'becomes Free')", async () => {
    const { f } = await creator("declined");
    const open: Stripe.Invoice = { ...f.invoice, status: "open", billing_reason: "subscription_update" };
    await stripeHas(open);
    expect((await deliver("invoice.payment_failed", open)).status).toBe(200);
    const mail = (await outbox()).find((m) => m.subject === "Your ClipCut upgrade was not made");
    expect(mail?.text).toContain("Your current plan stays as it is");
    expect(mail?.text).not.toContain("becomes Free");
  });

  it("a paid first invoice grants its month once, whatever order its events come in", async () => {
    const { userId, f } = await creator("order");
    expect((await deliver("customer.subscription.updated", f.subscription)).status).toBe(200);
    expect((await deliver("invoice.paid", f.invoice)).status).toBe(200);
    expect((await deliver("customer.subscription.created", f.subscription)).status).toBe(200);
    expect((await deliver("invoice.paid", f.invoice)).status).toBe(200);
    expect(await credits(userId)).toBe(100 + monthlyCredits("Basic"));
  });
});
