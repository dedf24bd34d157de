/**
 * POST /webhooks/stripe: the one place where Stripe's word changes anything. The signature is checked on the raw
 * body; each event id is applied once; the event's object is re-read from Stripe before acting (delivery order is
 * not trusted); plan and credits change only as UserLedger operations; the answer is 2xx only after they committed.
 */
import { eventSeen, markEvent, saveAlert, userIdOfCustomer } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { cryptoProvider, idOf, stripeFor, type Stripe } from "./stripe.server";
import { NotOurs, RetryLater, type Ctx } from "./stripe-events.server";
import {
  asyncPaymentFailed,
  checkoutCompleted,
  disputeChanged,
  invoiceActionRequired,
  invoiceFailed,
  invoicePaid,
  refundsChanged,
} from "./stripe-money.server";
import { syncSubscription } from "./stripe-subscriptions.server";

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/** Every event type we act on (docs/payments.md lists them for the endpoint's configuration). */
export const STRIPE_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "charge.refunded",
  "charge.refund.updated",
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
] as const;
const HANDLED = new Set<string>(STRIPE_EVENTS);

/** A live key answers only live events, a test key only test ones. */
const keyIsLive = (key: string) => /^(sk|rk)_live_/.test(key);

export async function handleStripeWebhook(request: Request, env: AppEnv): Promise<Response> {
  const db = getDb(env.DB);
  const client = stripeFor(env, db);
  const signature = request.headers.get("stripe-signature");
  const raw = await request.text();
  if (!signature) return json({ error: "Missing Stripe-Signature header." }, 400);
  let event: Stripe.Event;
  try {
    event = await client.stripe.webhooks.constructEventAsync(
      raw,
      signature,
      client.webhookSecret,
      undefined,
      cryptoProvider,
    );
  } catch {
    return json({ error: "The Stripe signature does not match this payload." }, 400);
  }
  if (!HANDLED.has(event.type)) return json({ received: true, ignored: event.type });
  if (await eventSeen(db, event.id)) return json({ received: true, duplicate: true });
  const object = event.data.object as { id?: string; customer?: string | { id: string } | null };
  const unmatched = async (reason: string) => {
    const customerId = idOf(object.customer ?? null);
    await saveAlert(db, {
      id: `unmatched:${event.id}`,
      kind: "unmatched",
      eventType: event.type,
      objectId: object.id ?? null,
      userId: customerId ? await userIdOfCustomer(db, customerId) : null,
      detail: reason,
    });
    await markEvent(db, event.id, event.type);
    return json({ received: true, unmatched: reason });
  };
  if (event.livemode !== keyIsLive(env.STRIPE_SECRET_KEY ?? ""))
    return unmatched(
      `A ${event.livemode ? "live" : "test"} event reached an endpoint with a ${event.livemode ? "test" : "live"} key.`,
    );
  try {
    await applyEvent({ env, db, client, origin: new URL(request.url).origin }, event);
  } catch (error) {
    if (error instanceof RetryLater) return json({ error: error.message }, 503);
    if (error instanceof NotOurs) return unmatched(error.message);
    if (isMissing(error))
      return unmatched(`Stripe has no such object for this account: ${String((error as Error).message)}`);
    console.error(
      JSON.stringify({ level: "error", msg: "stripe webhook failed", type: event.type, error: String(error) }),
    );
    return json({ error: "The event could not be applied; Stripe will deliver it again." }, 500);
  }
  await markEvent(db, event.id, event.type);
  return json({ received: true });
}

/** Stripe answered 404 for an object the event named (another account's, or deleted). */
const isMissing = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "resource_missing";

async function applyEvent(ctx: Ctx, event: Stripe.Event): Promise<void> {
  const object = event.data.object as { id: string };
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return checkoutCompleted(ctx, object.id);
    case "checkout.session.async_payment_failed":
      return asyncPaymentFailed(ctx, object.id);
    case "checkout.session.expired":
      return; // nothing was paid; the open-session check finds it expired
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      await syncSubscription(ctx, object.id);
      return;
    case "invoice.paid":
      return invoicePaid(ctx, object.id);
    case "invoice.payment_failed":
      return invoiceFailed(ctx, object.id);
    case "invoice.payment_action_required":
      return invoiceActionRequired(ctx, object.id);
    case "charge.refunded":
      return refundsChanged(ctx, { charge: object.id });
    case "charge.refund.updated":
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
      return refundsChanged(ctx, { refund: object.id });
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated":
      return disputeChanged(ctx, object.id, event);
  }
}
