/**
 * Payment records as Stripe reported them (customers, subscriptions, invoices and pack payments, processed event
 * ids). Plan and credits are not here: only the UserLedger writes those.
 */
import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "./client.server";
import type { LineMonth, PaidLine } from "~/domain/billing";
import type { Billing, PaidPlanId } from "~/domain/plans";
import {
  billingAlerts,
  billingCustomers,
  billingEvents,
  billingPayments,
  billingSubscriptions,
  creditLines,
  users,
} from "./schema";

export type BillingPayment = typeof billingPayments.$inferSelect;
export type BillingSubscription = typeof billingSubscriptions.$inferSelect;

// ── Customers ────────────────────────────────────────────────────────────

export async function customerIdOf(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .select({ id: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
    .get();
  return row?.id ?? null;
}

export async function userIdOfCustomer(db: Db, customerId: string): Promise<string | null> {
  const row = await db
    .select({ id: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.customerId, customerId))
    .get();
  return row?.id ?? null;
}

/** Keeps the first customer of a user; answers the one that is kept. */
export async function saveCustomer(db: Db, userId: string, customerId: string): Promise<string> {
  await db.insert(billingCustomers).values({ userId, customerId }).onConflictDoNothing();
  return (await customerIdOf(db, userId)) ?? customerId;
}

export async function userEmail(db: Db, userId: string) {
  return db.select({ email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId)).get();
}

// ── Subscriptions ────────────────────────────────────────────────────────

export async function saveSubscription(db: Db, row: BillingSubscription): Promise<void> {
  await db
    .insert(billingSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: billingSubscriptions.id,
      set: {
        status: row.status,
        plan: row.plan,
        interval: row.interval,
        pendingPlan: row.pendingPlan,
        currentPeriodStart: row.currentPeriodStart,
        currentPeriodEnd: row.currentPeriodEnd,
        updatedAt: row.updatedAt,
      },
    });
}

const RUNNING = ["active", "trialing", "past_due"];

/**
 * How far the user's running subscription is paid (epoch ms), or null without one: the renewal
 * alarm credits a subscriber's months only up to it; later months come from paid invoices.
 */
export async function subscriptionPaidUntil(db: Db, userId: string): Promise<number | null> {
  const sub = await runningSubscription(db, userId);
  if (!sub) return null;
  // Past due: Stripe has moved the period on, but its invoice is unpaid — paid only up to that period's start.
  return (sub.status === "past_due" ? sub.currentPeriodStart : sub.currentPeriodEnd).getTime();
}

/** The user's subscription that Stripe still bills, if any. */
export async function runningSubscription(db: Db, userId: string): Promise<BillingSubscription | null> {
  const row = await db
    .select()
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.userId, userId), inArray(billingSubscriptions.status, RUNNING)))
    .orderBy(desc(billingSubscriptions.updatedAt))
    .get();
  return row ?? null;
}

// ── Payments ─────────────────────────────────────────────────────────────

/** Inserts or brings up to date a payment (an invoice or a pack), keeping what a refund already recorded. */
export async function savePayment(db: Db, row: typeof billingPayments.$inferInsert): Promise<void> {
  await db
    .insert(billingPayments)
    .values(row)
    .onConflictDoUpdate({
      target: billingPayments.id,
      set: {
        status: sql`case when ${billingPayments.refundedCents} > 0 then ${billingPayments.status} else ${row.status} end`,
        amountCents: row.amountCents,
        number: row.number ?? null,
        paymentIntentId: row.paymentIntentId ?? null,
        invoiceUrl: row.invoiceUrl ?? null,
        paidAt: row.paidAt ?? null,
        credits: sql`max(${billingPayments.credits}, ${row.credits ?? 0})`,
      },
    });
}

export async function paymentByIntent(db: Db, paymentIntentId: string): Promise<BillingPayment | null> {
  const row = await db.select().from(billingPayments).where(eq(billingPayments.paymentIntentId, paymentIntentId)).get();
  return row ?? null;
}

export async function paymentById(db: Db, id: string): Promise<BillingPayment | null> {
  return (await db.select().from(billingPayments).where(eq(billingPayments.id, id)).get()) ?? null;
}

/**
 * Records what has been refunded of a payment so far. `refunded_at` moves only when the amount does (a repeated
 * event keeps the date of the refund it repeats); `at` is when that refund was made, now unless the caller knows.
 */
export async function setRefunded(
  db: Db,
  id: string,
  refundedCents: number,
  amountCents: number,
  at: Date = new Date(),
): Promise<void> {
  await db
    .update(billingPayments)
    .set({
      refundedCents,
      // A refund that failed (or a dispute won) brings the payment back to paid.
      status: refundedCents <= 0 ? "paid" : refundedCents >= amountCents ? "refunded" : "partially_refunded",
      refundedAt: sql`case when ${refundedCents} = 0 then null when ${billingPayments.refundedCents} = ${refundedCents} then ${billingPayments.refundedAt} else ${at.getTime()} end`,
    })
    .where(eq(billingPayments.id, id));
}

/** /billing's table, newest first. */
export async function paymentsOf(db: Db, userId: string, limit = 50): Promise<BillingPayment[]> {
  return db
    .select()
    .from(billingPayments)
    .where(eq(billingPayments.userId, userId))
    .orderBy(desc(billingPayments.createdAt))
    .limit(limit);
}

/** Payments an admin may still refund (paid, not fully refunded, inside the guarantee window). */
export async function refundablePayments(db: Db, userId: string, since: number): Promise<BillingPayment[]> {
  return db
    .select()
    .from(billingPayments)
    .where(
      and(
        eq(billingPayments.userId, userId),
        inArray(billingPayments.status, ["paid", "partially_refunded"]),
        gte(billingPayments.paidAt, new Date(since)),
      ),
    )
    .orderBy(desc(billingPayments.paidAt));
}

/** Revenue in cents: paid payments less refunds, optionally only those paid in [from, to). */
export async function revenueCents(db: Db, range?: { from: number; to: number }): Promise<number> {
  const paid = sql`${billingPayments.status} in ('paid', 'refunded', 'partially_refunded')`;
  const where = range
    ? and(paid, gte(billingPayments.paidAt, new Date(range.from)), sql`${billingPayments.paidAt} < ${range.to}`)
    : paid;
  const row = await db
    .select({ cents: sql<number>`coalesce(sum(${billingPayments.amountCents} - ${billingPayments.refundedCents}), 0)` })
    .from(billingPayments)
    .where(where)
    .get();
  return row?.cents ?? 0;
}

// ── Events ───────────────────────────────────────────────────────────────

export async function eventSeen(db: Db, id: string): Promise<boolean> {
  return Boolean(await db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, id)).get());
}

export async function markEvent(db: Db, id: string, type: string, now = Date.now()): Promise<void> {
  await db
    .insert(billingEvents)
    .values({ id, type, processedAt: new Date(now) })
    .onConflictDoNothing();
}

// ── Paid lines (written by the ledger; read here for what a webhook or a refund must name) ─────────────────────

/** The paid lines of a subscription: a proration credit without Stripe's `credited_items` names these. */
export async function lineIdsOfSubscription(db: Db, userId: string, subscriptionId: string) {
  return db
    .select({
      id: creditLines.id,
      plan: creditLines.plan,
      billing: creditLines.billing,
      start: creditLines.startAt,
      end: creditLines.endAt,
    })
    .from(creditLines)
    .where(and(eq(creditLines.userId, userId), eq(creditLines.subscriptionId, subscriptionId)));
}

/** The lines a payment (an invoice, or a pack's payment intent) paid for, as the ledger last wrote them. */
export async function linesOfPayment(db: Db, userId: string, paymentId: string): Promise<PaidLine[]> {
  const rows = await db
    .select()
    .from(creditLines)
    .where(and(eq(creditLines.userId, userId), eq(creditLines.paymentId, paymentId)));
  return rows.map(toPaidLine);
}

export function toPaidLine(row: typeof creditLines.$inferSelect): PaidLine {
  return {
    id: row.id,
    paymentId: row.paymentId,
    subscriptionId: row.subscriptionId ?? null,
    label: row.label,
    plan: (row.plan as PaidPlanId | null) ?? null,
    billing: (row.billing as Billing | null) ?? null,
    start: row.startAt,
    end: row.endAt,
    chargedCents: row.chargedCents,
    months: JSON.parse(row.months) as LineMonth[],
    returned: JSON.parse(row.returned) as Record<string, number>,
    granted: row.granted,
    stopAt: row.stopAt ?? null,
    moves: row.moves,
  };
}

// ── Alerts (what an admin must look at) ──────────────────────────────────────

export type BillingAlert = typeof billingAlerts.$inferSelect;

/** Recorded once per id (an event id and kind): a redelivered event adds nothing. */
export async function saveAlert(db: Db, row: Omit<BillingAlert, "createdAt"> & { createdAt?: Date }): Promise<void> {
  await db
    .insert(billingAlerts)
    .values({ ...row, createdAt: row.createdAt ?? new Date() })
    .onConflictDoNothing();
}

export async function recentAlerts(db: Db, limit = 100): Promise<BillingAlert[]> {
  return db.select().from(billingAlerts).orderBy(desc(billingAlerts.createdAt)).limit(limit);
}

export async function alertsOfUser(db: Db, userId: string, limit = 50): Promise<BillingAlert[]> {
  return db
    .select()
    .from(billingAlerts)
    .where(eq(billingAlerts.userId, userId))
    .orderBy(desc(billingAlerts.createdAt))
    .limit(limit);
}
