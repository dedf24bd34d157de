import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { standIn } from "./stand-in";
import { eventsAbout, stripe } from "./stand-in-sdk";

// What a merchant switches on, accepted by the stand-in as by Stripe: Checkout with automatic tax and the address it
// needs, Customer Portal configurations made by our code, and a session's line items read back.

const basic = [{ price: "price_basic_monthly", quantity: 1 }];

describe("Checkout with automatic tax", () => {
  it("needs an address: refused for a customer without one unless Checkout may save the one it collects", async () => {
    const customer = await stripe.customers.create({ email: "tax-refused@example.com" });
    await expect(
      stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: basic,
        automatic_tax: { enabled: true },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "automatic_tax[enabled]" });
    await expect(
      stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: basic,
        billing_address_collection: "sometimes" as "auto",
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "billing_address_collection" });
  });

  it("collects the address, saves it on the customer, and answers automatic_tax on the session, subscription and invoice", async () => {
    const customer = await stripe.customers.create({ email: "tax@example.com" });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: basic,
      automatic_tax: { enabled: true },
      billing_address_collection: "required",
      customer_update: { address: "auto" },
    });
    expect(session).toMatchObject({
      automatic_tax: { enabled: true, status: "requires_location_inputs" },
      billing_address_collection: "required",
      total_details: { amount_tax: 0 },
    });
    expect(await standIn().checkoutNeedsAddress(session.id)).toBe(true);
    const paid = await standIn().completeCheckout(session.id, {
      cardNumber: "4242 4242 4242 4242",
      address: { country: "DE", postalCode: "10115" },
    });
    expect(paid).toEqual({ ok: true });
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({
      status: "complete",
      automatic_tax: { enabled: true, status: "complete" },
      customer_details: { email: "tax@example.com", address: { country: "DE", postal_code: "10115" } },
    });
    const saved = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(saved.address).toMatchObject({ country: "DE", postal_code: "10115" });
    const sub = await stripe.subscriptions.retrieve(String(done.subscription), { expand: ["latest_invoice"] });
    expect(sub.automatic_tax).toMatchObject({ enabled: true });
    expect(sub.latest_invoice).toMatchObject({ automatic_tax: { enabled: true, status: "complete" }, total: 1500 });
    // With the address saved, the next session knows where the customer is.
    const next = await stripe.checkout.sessions.create({
      mode: "payment",
      customer: customer.id,
      line_items: [{ price: "price_credits_500", quantity: 1 }],
      automatic_tax: { enabled: true },
    });
    expect(next.automatic_tax).toMatchObject({ enabled: true, status: "complete" });
  });

  it("a session's line items are read back, listed or expanded, as Stripe keeps them", async () => {
    const customer = await stripe.customers.create({ email: "line-items@example.com" });
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      customer: customer.id,
      line_items: [{ price: "price_credits_2000", quantity: 1 }],
    });
    const listed = await stripe.checkout.sessions.listLineItems(session.id);
    expect(listed.data.map((l) => [l.price?.lookup_key, l.quantity, l.amount_total])).toEqual([
      ["credits_2000", 1, 3500],
    ]);
    const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ["line_items"] });
    expect(expanded.line_items?.data.map((l) => l.id)).toEqual(listed.data.map((l) => l.id));
    expect(await stripe.checkout.sessions.retrieve(session.id)).not.toHaveProperty("line_items");
  });
});

describe("Customer Portal configurations", () => {
  it("our code creates, lists and updates one; portal sessions take it, and refuse one that is unknown or inactive", async () => {
    const created = await stripe.billingPortal.configurations.create({
      business_profile: { headline: "ClipCut billing" },
      features: {
        subscription_update: { enabled: false },
        subscription_cancel: { enabled: true, mode: "at_period_end" },
        payment_method_update: { enabled: true },
        invoice_history: { enabled: true },
      },
      default_return_url: "http://localhost/billing",
    });
    expect(created).toMatchObject({
      object: "billing_portal.configuration",
      active: true,
      is_default: false,
      livemode: false,
      business_profile: { headline: "ClipCut billing" },
      features: {
        subscription_update: { enabled: false },
        subscription_cancel: { enabled: true, mode: "at_period_end" },
        payment_method_update: { enabled: true },
        invoice_history: { enabled: true },
      },
    });
    const listed = await stripe.billingPortal.configurations.list({ active: true, limit: 100 });
    expect(listed.data.map((c) => c.id)).toContain(created.id);
    expect(listed.data.filter((c) => c.is_default)).toHaveLength(1);
    expect(await eventsAbout(created.id)).toEqual(["billing_portal.configuration.created"]);

    const customer = await stripe.customers.create({ email: "portal-config@example.com" });
    const session = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: created.id });
    expect(session).toMatchObject({ configuration: created.id, return_url: "http://localhost/billing" });
    await expect(
      stripe.billingPortal.sessions.create({ customer: customer.id, configuration: "bpc_unknown" }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await stripe.billingPortal.configurations.update(created.id, { active: false });
    await expect(
      stripe.billingPortal.sessions.create({ customer: customer.id, configuration: created.id }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(stripe.billingPortal.configurations.create({} as never)).rejects.toMatchObject({ statusCode: 400 });
  });
});
