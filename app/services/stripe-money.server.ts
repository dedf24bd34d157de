/**
 * What Stripe's money events mean for credits: a paid invoice's lines, a paid pack, refunds (pending counts, a failed
 * one comes back), disputes (lost or open: the money is out; won: it is back) and a subscription's end, each turned
 * into the ledger's one money operation (`followMoney`). Every object is re-read from Stripe, so order and
 * redelivery do not matter: the ledger sets what each refund or dispute sends back, never adds it.
 */
import type { FollowMoneyInput } from "~/domain/ledger";
import { lineCredits, newPaidLine, subscriptionPlans, type MoneyReturned, type PaidLineInput } from "~/domain/billing";
import { creditPack, formatCents, planOfLookupKey, type Billing, type PaidPlanId } from "~/domain/plans";
import {
  eventSeen,
  lineIdsOfSubscription,
  markEvent,
  paymentById,
  paymentByIntent,
  saveAlert,
  savePayment,
  setRefunded,
  userEmail,
  userIdOfCustomer,
} from "~/db/billing.server";
import { actionEmail, sendEmail } from "./email.server";
import { ledger } from "./ledger.server";
import { idOf, msOf, type Stripe } from "./stripe.server";
import { invoicePaymentIntent, must, NotOurs, RetryLater, userOf, type Ctx } from "./stripe-events.server";
import { syncSubscription } from "./stripe-subscriptions.server";

const invoiceSubscription = (invoice: Stripe.Invoice) => invoice.parent?.subscription_details ?? null;

const linePlans = new Map<string, { plan: PaidPlanId; billing: Billing } | null>();

/** The plan a price stands for, by its lookup key (a price id alone says nothing); remembered per isolate. */
async function planOfPrice(ctx: Ctx, price: string | Stripe.Price | null | undefined) {
  if (!price) return null;
  if (typeof price !== "string") return planOfLookupKey(price.lookup_key);
  if (!linePlans.has(price))
    linePlans.set(price, planOfLookupKey((await ctx.client.stripe.prices.retrieve(price)).lookup_key));
  return linePlans.get(price) ?? null;
}

/** All of an invoice's lines: the embedded page, and the rest through `GET /v1/invoices/:id/lines`. */
async function allLines(ctx: Ctx, invoice: Stripe.Invoice): Promise<Stripe.InvoiceLineItem[]> {
  if (!invoice.lines.has_more) return invoice.lines.data;
  return ctx.client.stripe.invoices.listLineItems(invoice.id, { limit: 100 }).autoPagingToArray({ limit: 10_000 });
}

/**
 * A paid invoice's lines as money: each positive line of a plan's price pays for its credit months; each proration
 * credit sends back money of the lines it names (`credited_items`, flexible billing) — or, without that, of this
 * subscription's earlier lines of the same price whose time it covers.
 */
async function invoiceMoney(ctx: Ctx, userId: string, invoice: Stripe.Invoice, subscriptionId: string) {
  const paid: PaidLineInput[] = [];
  const returned: MoneyReturned[] = [];
  let known: Awaited<ReturnType<typeof lineIdsOfSubscription>> | null = null;
  for (const line of await allLines(ctx, invoice)) {
    const priced = await planOfPrice(ctx, line.pricing?.price_details?.price);
    if (!priced || line.amount === 0) continue;
    const start = msOf(line.period.start);
    const end = msOf(line.period.end);
    if (line.amount > 0) {
      paid.push({
        id: line.id,
        paymentId: invoice.id,
        subscriptionId,
        chargedCents: line.amount,
        start,
        end,
        item: priced,
      });
      continue;
    }
    const details = line.parent?.subscription_item_details ?? line.parent?.invoice_item_details ?? null;
    let lines = details?.proration_details?.credited_items?.invoice_line_items ?? null;
    if (!lines) {
      known ??= await lineIdsOfSubscription(ctx.db, userId, subscriptionId);
      lines = known
        .filter((l) => l.plan === priced.plan && l.billing === priced.billing && l.start < end && l.end > start)
        .map((l) => l.id);
    }
    returned.push({ id: line.id, cents: -line.amount, from: { lines } });
  }
  return { paid, returned };
}

export async function invoicePaid(ctx: Ctx, invoiceId: string): Promise<void> {
  const invoice = await ctx.client.stripe.invoices.retrieve(invoiceId, { expand: ["payments"] });
  if (invoice.status !== "paid") return;
  const subscriptionId = idOf(invoiceSubscription(invoice)?.subscription ?? null);
  if (!subscriptionId)
    throw new NotOurs(`Invoice ${invoice.id} is not a subscription's: ClipCut sells nothing else by invoice.`);
  const synced = await syncSubscription(ctx, subscriptionId);
  const money = await invoiceMoney(ctx, synced.userId, invoice, subscriptionId);
  // A duplicate subscription's invoice is refunded in full: recorded (the refund needs it), never granted.
  if (!synced.duplicate)
    await follow(ctx, synced.userId, { ...money, reason: "Unused time credited by a plan change" }, invoice.id);
  const credits = money.paid.reduce((sum, l) => sum + lineCredits(newPaidLine(l)), 0);
  await savePayment(ctx.db, {
    id: invoice.id,
    userId: synced.userId,
    kind: "invoice",
    number: invoice.number,
    description: `${subscriptionPlans(synced.facts).current} plan, ${synced.facts.billing}`,
    status: "paid",
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    credits: synced.duplicate ? 0 : credits,
    paymentIntentId: invoicePaymentIntent(invoice),
    invoiceUrl: invoice.invoice_pdf ?? invoice.hosted_invoice_url ?? null,
    createdAt: new Date(msOf(invoice.created)),
    paidAt: new Date(msOf(invoice.status_transitions.paid_at ?? invoice.created)),
  });
}

/**
 * The ledger's money operation for one user; credits the money going back paid for that were already spent are
 * recorded for the admin (they are taken as soon as the balance has them).
 */
async function follow(ctx: Ctx, userId: string, input: FollowMoneyInput, what: string) {
  const result = must(await ledger(ctx.env, userId).followMoney(input));
  if (result.owed > 0)
    await saveAlert(ctx.db, {
      id: `owed:${what}:${result.owed}`,
      kind: "owed",
      eventType: what,
      objectId: null,
      userId,
      detail: `${result.owed.toLocaleString("en-US")} credits were spent before their money went back (${input.reason ?? "payment"}); they are taken back as the balance allows.`,
    });
  return result;
}

/** A pack is granted from the session's own line items (their prices' lookup keys), once it is paid. */
export async function checkoutCompleted(ctx: Ctx, sessionId: string): Promise<void> {
  const session = await ctx.client.stripe.checkout.sessions.retrieve(sessionId);
  if (session.status !== "complete") return;
  if (session.mode === "subscription") {
    const subscriptionId = idOf(session.subscription);
    if (subscriptionId) await syncSubscription(ctx, subscriptionId);
    return;
  }
  // A delayed method (a bank debit) completes the session unpaid: async_payment_succeeded grants it later.
  if (session.mode !== "payment" || session.payment_status !== "paid") return;
  const paymentIntentId = idOf(session.payment_intent);
  if (!paymentIntentId) return;
  const items = await ctx.client.stripe.checkout.sessions.listLineItems(session.id, { limit: 100 });
  const packs = items.data.flatMap((item) => {
    const pack = creditPack(item.price?.lookup_key);
    return pack ? [{ pack, quantity: item.quantity ?? 1, cents: item.amount_total }] : [];
  });
  if (packs.length === 0) throw new NotOurs(`Checkout Session ${session.id} sold nothing ClipCut sells.`);
  const userId = await userOf(ctx, session.customer, session.metadata);
  const credits = packs.reduce((sum, p) => sum + p.pack.credits * p.quantity, 0);
  const name = packs.map((p) => (p.quantity > 1 ? `${p.quantity} × ${p.pack.name}` : p.pack.name)).join(", ");
  const at = msOf(session.created);
  const chargedCents = session.amount_total ?? packs.reduce((sum, p) => sum + p.cents, 0);
  await follow(
    ctx,
    userId,
    {
      paid: [
        {
          id: paymentIntentId,
          paymentId: paymentIntentId,
          subscriptionId: null,
          chargedCents,
          start: at,
          end: at,
          item: { pack: name, credits },
        },
      ],
    },
    paymentIntentId,
  );
  await savePayment(ctx.db, {
    id: paymentIntentId,
    userId,
    kind: "pack",
    description: `Credit pack: ${name}`,
    status: "paid",
    amountCents: chargedCents,
    currency: session.currency ?? "usd",
    credits,
    paymentIntentId,
    createdAt: new Date(at),
    paidAt: new Date(),
  });
}

export async function asyncPaymentFailed(ctx: Ctx, sessionId: string): Promise<void> {
  const session = await ctx.client.stripe.checkout.sessions.retrieve(sessionId);
  const userId = await userOf(ctx, session.customer, session.metadata);
  await mail(ctx, userId, {
    subject: "Your ClipCut credit pack was not paid",
    intro: `Your bank did not complete the payment of ${formatCents(session.amount_total ?? 0)}, so no credits were added and nothing was charged.`,
    action: "Try again",
    url: `${ctx.origin}/credits`,
    outro: "You can buy the pack again with a card, which is credited at once.",
  });
}

async function mail(ctx: Ctx, userId: string, body: Omit<Parameters<typeof actionEmail>[0], "to">) {
  const user = await userEmail(ctx.db, userId);
  if (user) await sendEmail({ env: ctx.env, db: ctx.db }, actionEmail({ to: user.email, ...body }));
}

/**
 * A failed invoice: a renewal's plan stays while Stripe retries; an upgrade's invoice means the upgrade was not
 * made (the plan in force stays, whatever happens to this invoice). Told once per invoice.
 */
export async function invoiceFailed(ctx: Ctx, invoiceId: string): Promise<void> {
  const invoice = await ctx.client.stripe.invoices.retrieve(invoiceId, {
    expand: ["payments.data.payment.payment_intent"],
  });
  // Paid meanwhile (a retry succeeded): nothing to tell.
  if (invoice.status === "paid" || invoice.status === "void") return;
  // The bank asks for authentication: Stripe sends invoice.payment_action_required next, which tells the creator.
  const intent = invoice.payments?.data[0]?.payment.payment_intent;
  if (intent && typeof intent !== "string" && intent.status === "requires_action") return;
  const userId = await userOf(ctx, invoice.customer, invoiceSubscription(invoice)?.metadata);
  const before = await paymentById(ctx.db, invoice.id);
  const upgrade = invoice.billing_reason === "subscription_update";
  await savePayment(ctx.db, {
    id: invoice.id,
    userId,
    kind: "invoice",
    number: invoice.number,
    description: upgrade ? "Plan change" : "Subscription renewal",
    status: "failed",
    amountCents: invoice.amount_due,
    currency: invoice.currency,
    invoiceUrl: invoice.hosted_invoice_url ?? null,
    createdAt: new Date(msOf(invoice.created)),
  });
  if (before) return; // told once per invoice
  if (upgrade)
    return mail(ctx, userId, {
      subject: "Your ClipCut upgrade was not made",
      intro: `We could not take the payment of ${formatCents(invoice.amount_due)} for your plan change (invoice ${invoice.number ?? invoice.id}), so the upgrade was not made. Your current plan stays as it is and nothing was charged.`,
      action: "See your plan",
      url: `${ctx.origin}/billing/plan`,
      outro: "You can update your card and pay the upgrade invoice from the plan page while it is open.",
    });
  await mail(ctx, userId, {
    subject: "Your ClipCut payment failed",
    intro: `We could not take the payment for your ClipCut subscription (invoice ${invoice.number ?? invoice.id}). Your plan stays as it is while Stripe tries again.`,
    action: "Update your payment method",
    url: `${ctx.origin}/billing`,
    outro: "If the payment keeps failing, the subscription ends and your plan becomes Free.",
  });
}

/** A renewal (or any invoice) the bank wants confirmed (3-D Secure): the creator gets the hosted invoice link. */
export async function invoiceActionRequired(ctx: Ctx, invoiceId: string): Promise<void> {
  const invoice = await ctx.client.stripe.invoices.retrieve(invoiceId);
  if (invoice.status === "paid" || invoice.status === "void") return;
  const userId = await userOf(ctx, invoice.customer, invoiceSubscription(invoice)?.metadata);
  const url = invoice.hosted_invoice_url ?? `${ctx.origin}/billing`;
  await mail(ctx, userId, {
    subject: "Confirm your ClipCut payment",
    intro: `Your bank asks you to confirm the payment of ${formatCents(invoice.amount_due)} for your ClipCut subscription (invoice ${invoice.number ?? invoice.id}). Until you do, it is not paid and its credits are not added.`,
    action: "Confirm the payment",
    url,
    outro: "The link opens Stripe's secure invoice page, where your bank asks for the confirmation.",
  });
}

/** Refund statuses whose money is on its way back (pending counts: it is taken back now, restored if it fails). */
const REFUND_OUT = new Set(["pending", "requires_action", "succeeded"]);

/** The payment a charge paid, recorded by its own event; a charge of nobody of ours is not ours. */
async function paymentOfCharge(ctx: Ctx, charge: Stripe.Charge) {
  const intent = idOf(charge.payment_intent);
  const payment = intent ? await paymentByIntent(ctx.db, intent) : null;
  if (payment) return payment;
  const customerId = idOf(charge.customer);
  if (!customerId || !(await userIdOfCustomer(ctx.db, customerId)))
    throw new NotOurs(`Charge ${charge.id} is not a payment of a ClipCut user.`);
  // Ours but not recorded: its own event may be on the way (Stripe retries for three days); after a day it is not.
  if (Date.now() - msOf(charge.created) < 24 * 60 * 60 * 1000)
    throw new RetryLater("The refunded payment is not recorded yet.");
  throw new NotOurs(`Charge ${charge.id} paid for nothing ClipCut recorded.`);
}

/** Every refund of a charge, as it stands now, sent back out of the payment's lines. */
export async function refundsChanged(ctx: Ctx, named: { charge: string } | { refund: string }): Promise<void> {
  const { stripe } = ctx.client;
  const chargeId = "charge" in named ? named.charge : idOf((await stripe.refunds.retrieve(named.refund)).charge);
  if (!chargeId) throw new NotOurs("The refund names no charge.");
  const charge = await stripe.charges.retrieve(chargeId);
  const payment = await paymentOfCharge(ctx, charge);
  const refunds = await stripe.refunds.list({ charge: charge.id, limit: 100 }).autoPagingToArray({ limit: 1000 });
  const returned: MoneyReturned[] = refunds.map((r) => ({
    id: r.id,
    cents: REFUND_OUT.has(r.status ?? "") ? r.amount : 0,
    from: { payment: payment.id },
  }));
  const byUs = refunds.find((r) => r.metadata?.actor_id);
  const said = refunds.find((r) => r.metadata?.reason)?.metadata?.reason;
  const result = await follow(
    ctx,
    payment.userId,
    {
      returned,
      reason: `Payment refunded (${said || refunds[0]?.reason || "refund"})`,
      actorId: byUs?.metadata?.actor_id ?? null,
    },
    charge.id,
  );
  const out = returned.reduce((sum, r) => sum + r.cents, 0);
  await setRefunded(ctx.db, payment.id, out, payment.amountCents);
  for (const refund of refunds)
    if (REFUND_OUT.has(refund.status ?? "")) await tellRefund(ctx, payment, refund, result.takenBack);
}

/**
 * The creator hears of each refund once (whichever of its events comes first): the amount, the credits taken back,
 * and what happens to the plan — a money-back of a subscription ends it; any other refund leaves the plan as it is.
 */
async function tellRefund(
  ctx: Ctx,
  payment: { userId: string; kind: string; description: string },
  refund: Stripe.Refund,
  takenBack: number,
) {
  const key = `mail:refund:${refund.id}`;
  if (await eventSeen(ctx.db, key)) return;
  const ended = payment.kind === "invoice" && refund.metadata?.money_back === "1";
  await mail(ctx, payment.userId, {
    subject: `ClipCut refunded ${formatCents(refund.amount)}`,
    intro:
      `We refunded ${formatCents(refund.amount)} of your payment for ${payment.description}` +
      (refund.status === "pending" ? " (your bank is still processing it)" : "") +
      `. ${takenBack.toLocaleString("en-US")} credits it paid for were taken back from your balance. ` +
      (ended
        ? "Your subscription has ended with this refund: your plan is now Free and nothing more will be charged."
        : "Your plan stays as it is."),
    action: "See your billing",
    url: `${ctx.origin}/billing`,
    outro: "Refunds reach your card within 5–10 business days.",
  });
  await markEvent(ctx.db, key, "refund.mail");
}

/** Dispute statuses whose money Stripe has taken back (an inquiry — `warning_*` — moves no money). */
const DISPUTE_OUT = new Set(["needs_response", "under_review", "lost"]);

/** A dispute takes the payment's unspent credits back while its money is out; a won dispute restores them. */
export async function disputeChanged(ctx: Ctx, disputeId: string, event: Stripe.Event): Promise<void> {
  const { stripe } = ctx.client;
  const dispute = await stripe.disputes.retrieve(disputeId);
  const chargeId = idOf(dispute.charge);
  if (!chargeId) throw new NotOurs(`Dispute ${dispute.id} names no charge.`);
  const payment = await paymentOfCharge(ctx, await stripe.charges.retrieve(chargeId));
  const cents = DISPUTE_OUT.has(dispute.status) ? dispute.amount : 0;
  const result = await follow(
    ctx,
    payment.userId,
    {
      returned: [{ id: dispute.id, cents, from: { payment: payment.id } }],
      reason: `Payment disputed (${dispute.reason})`,
    },
    dispute.id,
  );
  await saveAlert(ctx.db, {
    id: `dispute:${dispute.id}:${dispute.status}`,
    kind: "dispute",
    eventType: event.type,
    objectId: dispute.id,
    userId: payment.userId,
    detail:
      `Dispute of ${formatCents(dispute.amount)} (${dispute.reason}) on ${payment.description}: ${dispute.status.replace(/_/g, " ")}. ` +
      (cents > 0
        ? `${result.takenBack.toLocaleString("en-US")} credits taken back` +
          (result.owed > 0 ? `, ${result.owed.toLocaleString("en-US")} already spent.` : ".")
        : "No money is out; credits are as the payment left them."),
  });
}
