import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { customerIdOf, runningSubscription, saveCustomer } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import production from "../../workers/app";
import local, { type LocalEnv } from "../../workers/local";
import { get, insertUser, ORIGIN, post, signIn } from "./helpers";
import { stripe } from "./stand-in-sdk";

// The stand-in's hosted pages and `POST /dev/stripe/advance`, through the local Worker, with a signed-in creator.

const db = getDb(env.DB);
const PASSWORD = "Stand-in-pages-1";
const HOUR = 3600;
type IncomingRequest = Parameters<typeof production.fetch>[0];

async function creator(tag: string) {
  const userId = await insertUser({ email: `${tag}@example.com`, password: PASSWORD });
  return { userId, email: `${tag}@example.com`, cookie: await signIn(`${tag}@example.com`, PASSWORD) };
}

/** A creator who paid Basic monthly on the stand-in's checkout page. */
async function basicSubscriber(tag: string) {
  const who = await creator(tag);
  const checkout = (await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie: who.cookie })).headers;
  const page = new URL(checkout.get("Location") ?? "").pathname;
  const paid = await post(page, { method: "card", cardNumber: "4242 4242 4242 4242" }, { cookie: who.cookie });
  expect(paid.status).toBe(302);
  const running = await runningSubscription(db, who.userId);
  const subscription = await stripe.subscriptions.retrieve(String(running?.id));
  return { ...who, subscription, customer: String(subscription.customer) };
}

function advance(body: unknown, init: { origin?: string; raw?: string } = {}) {
  return exports.default.fetch(
    new Request(`${ORIGIN}/dev/stripe/advance`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(init.origin ? { Origin: init.origin } : {}) },
      body: init.raw ?? JSON.stringify(body),
    }),
  );
}

interface Advanced {
  testClock: string;
  frozenTime: number;
  events: { id: string; type: string; object: string; delivered: boolean }[];
}

describe("POST /dev/stripe/advance", () => {
  it("refuses bad input with 400, an unknown e-mail with 404, another site with 403; it exists only with the stand-in", async () => {
    for (const [body, raw] of [
      [null, "not json"],
      [{ email: "nobody", seconds: 60 }, undefined],
      [{ email: "a@example.com", seconds: -5 }, undefined],
      [{ email: "a@example.com", seconds: 1.5 }, undefined],
      [{ email: "a@example.com" }, undefined],
      [{ email: "a@example.com", seconds: 60, clock: "clock_x" }, undefined],
    ] as const) {
      const res = await advance(body, { raw });
      expect(res.status, JSON.stringify(body ?? raw)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
    expect((await advance({ email: "nobody@example.com", seconds: 60 })).status).toBe(404);
    // A user who never reached Stripe has no customer, so no clock.
    const { email } = await creator("no-customer");
    expect((await advance({ email, seconds: 60 })).status).toBe(404);
    expect((await advance({ email, seconds: 60 }, { origin: "https://evil.example" })).status).toBe(403);
    const request = () =>
      new Request(`${ORIGIN}/dev/stripe/advance`, {
        method: "POST",
        body: JSON.stringify({ email, seconds: 60 }),
      }) as IncomingRequest;
    const { STAND_IN: _binding, ...withoutBinding } = env as LocalEnv;
    expect((await local.fetch(request(), withoutBinding, createExecutionContext())).status).toBe(404);
    // The production Worker has no /dev/ routes at all: a POST to a path it does not know is 405 there, as any is.
    const deployed = await production.fetch(
      request(),
      { ...env, APP_MODE: "local" } as AppEnv,
      createExecutionContext(),
    );
    expect([404, 405]).toContain(deployed.status);
    expect(await deployed.text()).not.toContain("testClock");
  });

  it("renews a subscriber on their clock and delivers the renewal's events to the webhook, moment by moment", async () => {
    const { email, subscription, cookie } = await basicSubscriber("advance-renewal");
    const end = subscription.items.data[0]!.current_period_end;
    const res = await advance({ email, seconds: end - subscription.created + 2 * HOUR });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Advanced;
    expect(body).toMatchObject({ testClock: subscription.test_clock, frozenTime: end + 2 * HOUR });
    const renewal = await stripe.subscriptions.retrieve(subscription.id);
    const invoice = String(renewal.latest_invoice);
    const types = body.events.map((e) => e.type);
    expect(types[0]).toBe("test_helpers.test_clock.advancing");
    expect(types.at(-1)).toBe("test_helpers.test_clock.ready");
    expect(body.events.filter((e) => e.object === invoice).map((e) => e.type)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "invoice.paid",
    ]);
    expect(body.events.filter((e) => e.object === subscription.id).map((e) => e.type)).toContain(
      "customer.subscription.updated",
    );
    expect(body.events.filter((e) => !e.delivered)).toEqual([]);

    // The renewal's hosted page shows its line; its PDF is served to its customer only.
    const page = await (await get(`/dev/stripe/invoice/${invoice}`, { cookie })).text();
    expect(page).toContain("This invoice is paid.");
    expect(page).toContain("1 × basic_monthly");
    const pdf = await get(`/dev/stripe/invoice/${invoice}/pdf`, { cookie });
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    const text = await pdf.text();
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text).toContain((await stripe.invoices.retrieve(invoice)).number ?? "no number");
    const other = await creator("pdf-snoop");
    expect((await get(`/dev/stripe/invoice/${invoice}/pdf`, { cookie: other.cookie })).status).toBe(404);
  });
});

describe("the checkout page", () => {
  it("offers packs a labelled bank-debit test option: the checkout completes unpaid and the payment settles on advance", async () => {
    const { email, cookie, userId } = await creator("debit-page");
    const plan = (await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie })).headers;
    expect(await (await get(new URL(plan.get("Location") ?? "").pathname, { cookie })).text()).not.toContain(
      "Routing number",
    );
    const started = await post("/billing/packs", { pack: "credits_500" }, { cookie });
    const checkout = new URL(started.headers.get("Location") ?? "").pathname;
    const html = await (await get(checkout, { cookie })).text();
    expect(html).toContain("Test option: US bank account, ACH Direct Debit (delayed payment)");
    expect(html).toMatch(/<label for="accountNumber">Account number<\/label>/);
    const debit = (accountNumber: string) =>
      post(checkout, { method: "us_bank_account", routingNumber: "110000000", accountNumber }, { cookie });
    const unknown = await debit("000999999999");
    expect(unknown.status).toBe(402);
    expect(await unknown.text()).toContain("Your bank account is invalid.");
    const paid = await debit("000123456789");
    expect(paid.status).toBe(302);
    const session = await stripe.checkout.sessions.retrieve(checkout.split("/").pop() ?? "");
    expect(session).toMatchObject({ status: "complete", payment_status: "unpaid" });
    expect(await customerIdOf(db, userId)).toBe(session.customer);
    const res = await advance({ email, seconds: 60 });
    const { events } = (await res.json()) as Advanced;
    expect(events.filter((e) => e.object === session.id)).toEqual([
      expect.objectContaining({ type: "checkout.session.async_payment_succeeded", delivered: true }),
    ]);
  });

  it("asks for the billing address when the session needs one (prefilled), and saves it on the customer", async () => {
    const { cookie, userId } = await creator("address-page");
    const customer = await stripe.customers.create({ email: "address-page@example.com" });
    await saveCustomer(db, userId, customer.id);
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      customer: customer.id,
      line_items: [{ price: "price_credits_500", quantity: 1 }],
      automatic_tax: { enabled: true },
      customer_update: { address: "auto" },
      success_url: `${ORIGIN}/credits?purchase=success`,
    });
    const checkout = `/dev/stripe/checkout/${session.id}`;
    const html = await (await get(checkout, { cookie })).text();
    expect(html).toContain("Billing address");
    expect(html).toMatch(/<label for="postalCode">Postal code<\/label>/);
    expect(html).toContain("Tax: $0.00");
    const missing = await post(
      checkout,
      { method: "card", cardNumber: "4242424242424242", country: "US", postalCode: " " },
      { cookie },
    );
    expect(missing.status).toBe(402);
    expect(await missing.text()).toContain("Enter your billing address.");
    const paid = await post(
      checkout,
      { method: "card", cardNumber: "4242424242424242", country: "FR", postalCode: "75001" },
      { cookie },
    );
    expect(paid.status).toBe(302);
    const saved = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(saved.address).toMatchObject({ country: "FR", postal_code: "75001" });
  });
});

describe("the portal page", () => {
  it("cancels at the period end and renews as its configuration allows, and lists the invoices", async () => {
    const { cookie, subscription } = await basicSubscriber("portal-cancel");
    const portal = new URL((await post("/billing", { intent: "portal" }, { cookie })).headers.get("Location") ?? "")
      .pathname;
    const html = await (await get(portal, { cookie })).text();
    expect(html).toContain("Cancel subscription at the end of the period");
    expect(html).toContain("Invoice history");
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(html).toContain(String(invoice.number));
    expect((await post(portal, { intent: "cancel" }, { cookie })).status).toBe(302);
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ cancel_at_period_end: true });
    expect(await (await get(portal, { cookie })).text()).toContain("Renew subscription");
    expect((await post(portal, { intent: "renew" }, { cookie })).status).toBe(302);
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ cancel_at_period_end: false });
    expect((await post(portal, { intent: "nonsense" }, { cookie })).status).toBe(400);
  });
});
