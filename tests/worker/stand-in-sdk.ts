import Stripe from "stripe";
import { expect } from "vitest";
import { standIn } from "./stand-in";

/**
 * The Stripe SDK pointed straight at the stand-in object, with nothing delivered to /webhooks/stripe: the stand-in's
 * own answers and the events it records (`stripe.events.list`) are what these tests read.
 */
export const stripe = new Stripe("sk_test_clipcut_stand_in", {
  httpClient: Stripe.createFetchHttpClient((input, init) => standIn().fetch(new Request(input, init))),
});

export const DAY = 86_400;

/** A customer (on the test clock the stand-in gives it) who bought `lookupKey` on the checkout page with `card`. */
export async function subscriber(email: string, lookupKey: string, card = "4242 4242 4242 4242") {
  const customer = await stripe.customers.create({ email, metadata: { user_id: email } });
  const [price] = (await stripe.prices.list({ lookup_keys: [lookupKey] })).data;
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price: price!.id, quantity: 1 }],
    success_url: "http://localhost/billing/plan",
  });
  expect(await standIn().completeCheckout(session.id, card)).toEqual({ ok: true });
  const done = await stripe.checkout.sessions.retrieve(session.id);
  const subscription = await stripe.subscriptions.retrieve(String(done.subscription));
  return { customer, session: done, subscription, clock: String(customer.test_clock) };
}

/** Moves a test clock `seconds` on (Stripe's advance), answering its new frozen time. */
export async function advance(clock: string, seconds: number): Promise<number> {
  const now = (await stripe.testHelpers.testClocks.retrieve(clock)).frozen_time;
  await stripe.testHelpers.testClocks.advance(clock, { frozen_time: now + seconds });
  const after = await stripe.testHelpers.testClocks.retrieve(clock);
  expect(after).toMatchObject({ status: "ready", frozen_time: now + seconds });
  return after.frozen_time;
}

/** The types of the events recorded for one object, oldest first. */
export async function eventsAbout(id: string): Promise<string[]> {
  const events = await stripe.events.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
  return events
    .filter((e) => (e.data.object as { id?: string }).id === id)
    .map((e) => e.type)
    .reverse();
}

/** Changes the subscription's only item to `lookupKey`, as ClipCut does (pending if the invoice is not paid). */
export async function switchTo(sub: Stripe.Subscription, lookupKey: string, proration: "always_invoice" | "none") {
  const updated = await stripe.subscriptions.update(sub.id, {
    items: [{ id: sub.items.data[0]!.id, price: `price_${lookupKey}` }],
    proration_behavior: proration,
    ...(proration === "always_invoice" ? { payment_behavior: "pending_if_incomplete" as const } : {}),
    expand: ["latest_invoice"],
  });
  return { subscription: updated, invoice: updated.latest_invoice as Stripe.Invoice };
}
