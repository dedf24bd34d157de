/**
 * "Delete my account" and "Download my data", for the person themself (/account) and for an admin (the user's admin
 * screen). Deletion runs in an order that a retry can finish: money first (a refund inside the guarantee, the
 * subscription cancelled at once), then the team ops, then the user's ledger closes the account (credits to zero in
 * one kept row, banned, clips erased), then access ends and the personal data goes. Each step is idempotent.
 */
import { accountDataRows, anotherActiveAdmin, eraseAccountData } from "~/db/account-data.server";
import { customerIdOf, refundablePayments, runningSubscription } from "~/db/billing.server";
import type { Db } from "~/db/client.server";
import { readCredits } from "~/db/credits.server";
import { memberEmails, membershipOf } from "~/db/teams.server";
import { findUserById } from "~/db/user-access.server";
import { BILLING_RECORDS_YEARS, DELETION_MESSAGES, isErasedEmail, type DeletionFacts } from "~/domain/account-deletion";
import { effectivePlan, REFUND_WINDOW_MS } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { revokeAccess } from "./access-revocation.server";
import { publishAdminEvent } from "./admin-events.server";
import { audit } from "./audit.server";
import { refundPayment } from "./billing.server";
import { sendEmail } from "./email.server";
import { busyHeaders, ledger } from "./ledger.server";
import { closeAdminSockets, closeUserSockets } from "./realtime-control.server";
import { idOf, stripeFor } from "./stripe.server";
import { refundsChanged } from "./stripe-money.server";
import { syncSubscription } from "./stripe-subscriptions.server";
import { leave, removeMember } from "./teams.server";

const GUARANTEE_REASON = "account deleted within the money-back guarantee";

/** What the statement before deletion is decided on (`deletionConsequences`). */
export async function deletionFacts(
  db: Db,
  user: { id: string; plan: string },
  now = Date.now(),
): Promise<DeletionFacts> {
  const [credits, running, payments, membership] = await Promise.all([
    readCredits(db, user.id),
    runningSubscription(db, user.id),
    refundablePayments(db, user.id, now - REFUND_WINDOW_MS),
    membershipOf(db, user.id),
  ]);
  return {
    credits: credits?.balance ?? 0,
    plan: effectivePlan(user.plan),
    subscription: running
      ? { plan: running.plan, billing: running.interval, periodEnd: running.currentPeriodEnd.getTime() }
      : null,
    guaranteed: payments
      .filter((p) => p.kind === "invoice" && p.paidAt)
      .map((p) => ({ amountCents: p.amountCents - p.refundedCents, paidAt: p.paidAt!.getTime() })),
    team:
      membership?.role === "owner"
        ? { role: "owner", members: (await memberEmails(db, user.id)).length }
        : membership
          ? { role: "member" }
          : null,
  };
}

/**
 * The money side: each subscription payment inside the money-back guarantee is refunded for its unspent credits
 * (`refundPayment`, which also ends that subscription), and a subscription still running is cancelled at once with no
 * proration and no final invoice. What Stripe now holds is applied at once (the webhook does the same; both are
 * idempotent), so the credits a refund takes back leave before the account's balance is closed.
 */
async function endBilling(env: AppEnv, db: Db, origin: string, userId: string, actorId: string, now: number) {
  if (!(await customerIdOf(db, userId))) return { refundedCents: 0, cancelled: false };
  const client = stripeFor(env, db);
  const ctx = { env, db, client, origin };
  let refundedCents = 0;
  for (const payment of await refundablePayments(db, userId, now - REFUND_WINDOW_MS)) {
    if (payment.kind !== "invoice") continue;
    const refunded = await refundPayment(env, db, origin, {
      userId,
      paymentId: payment.id,
      actorId,
      reason: GUARANTEE_REASON,
      now,
    });
    // A refusal here (all its credits spent, already refunded) leaves that payment as it is.
    if (!refunded.ok) continue;
    refundedCents += refunded.cents;
    if (payment.paymentIntentId) {
      const intent = await client.stripe.paymentIntents.retrieve(payment.paymentIntentId);
      const charge = idOf(intent.latest_charge);
      if (charge) await refundsChanged(ctx, { charge });
    }
  }
  const running = await runningSubscription(db, userId);
  if (running) {
    await client.stripe.subscriptions.cancel(
      running.id,
      { prorate: false, invoice_now: false },
      { idempotencyKey: `account-deleted-cancel:${running.id}` },
    );
    await syncSubscription(ctx, running.id);
  }
  return { refundedCents, cancelled: running !== null };
}

export interface DeleteAccountInput {
  userId: string;
  /** The person themself, or the admin who deletes it. */
  actorId: string;
  /** An admin's reason (required there); null when the person deletes their own account. */
  reason: string | null;
  origin: string;
  ip?: string;
}

export type DeleteAccountResult =
  | { ok: true; creditsCancelled: number; refundedCents: number; subscriptionCancelled: boolean }
  | { ok: false; status: number; message: string; headers?: HeadersInit };

/** Deletes an account (see the module's comment). The caller has checked the step-up and who may act on whom. */
export async function deleteAccount(env: AppEnv, db: Db, input: DeleteAccountInput): Promise<DeleteAccountResult> {
  const { userId, actorId, origin, ip } = input;
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, status: 404, message: "User not found." };
  if (isErasedEmail(user.email)) return { ok: false, status: 409, message: DELETION_MESSAGES.alreadyDeleted };
  const now = Date.now();
  // One active admin always remains (the ledger's ban of an admin is conditional on another one too).
  if (user.role === "admin" && !(await anotherActiveAdmin(db, userId)))
    return { ok: false, status: 409, message: DELETION_MESSAGES.lastAdmin };
  let billing: { refundedCents: number; cancelled: boolean };
  try {
    billing = await endBilling(env, db, origin, userId, actorId, now);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "account deletion: billing failed", error: String(error) }));
    return { ok: false, status: 502, message: DELETION_MESSAGES.stripeFailed };
  }
  const team = await closeTeam(env, db, origin, userId, ip);
  if (!team.ok) return team;
  const closed = await ledger(env, userId).closeAccount({ actorId, erase: [user.email, user.fullName] });
  if (!closed.ok) return { ok: false, status: closed.status, message: closed.message, headers: busyHeaders(closed) };
  // Sessions end and extension tokens are revoked (their sockets close); the rows themselves go with the data below.
  await revokeAccess(env, userId, undefined, "account deleted");
  await Promise.all([closeUserSockets(env, userId, "account deleted"), closeAdminSockets(env, userId)]);
  await tellDeleted(env, user.email, input.reason !== null);
  await eraseAccountData(db, { userId, email: user.email, fullName: user.fullName });
  const details = {
    creditsCancelled: closed.value.creditsCancelled,
    refundedCents: billing.refundedCents,
    subscriptionCancelled: billing.cancelled,
    team: team.role,
  };
  await audit(db, {
    action: input.reason === null ? "account.deleted" : "admin.account_deleted",
    actorId,
    subjectId: userId,
    // The person's own address is personal data that this deletion erases; an admin's is kept as any admin action's.
    ip: input.reason === null ? undefined : ip,
    details: input.reason === null ? details : { ...details, reason: input.reason },
  });
  await publishAdminEvent(env, "users");
  return {
    ok: true,
    creditsCancelled: closed.value.creditsCancelled,
    refundedCents: billing.refundedCents,
    subscriptionCancelled: billing.cancelled,
  };
}

/** An owner's team closes (each member removed, then the team closed: the team ops); a member leaves. */
async function closeTeam(
  env: AppEnv,
  db: Db,
  origin: string,
  userId: string,
  ip: string | undefined,
): Promise<{ ok: true; role: "owner" | "member" | null } | { ok: false; status: number; message: string }> {
  const membership = await membershipOf(db, userId);
  if (!membership) return { ok: true, role: null };
  const ctx = { env, db, origin, ip };
  if (membership.role === "member") {
    const left = await leave(ctx, userId);
    return left.ok ? { ok: true, role: "member" } : left;
  }
  const members = await memberEmails(db, userId);
  for (const member of members) {
    const removed = await removeMember(ctx, userId, member.id);
    if (!removed.ok) return removed;
  }
  const closed = await leave(ctx, userId);
  if (!closed.ok) return closed;
  for (const member of members)
    await sendEmail(
      { env },
      {
        to: member.email,
        subject: "Your ClipCut team has closed",
        text: "The owner of your ClipCut team deleted their account, so the team has closed. Your clips stay yours, and from now on they are paid from your own account.\n\n— The ClipCut team",
        html: "<p>The owner of your ClipCut team deleted their account, so the team has closed. Your clips stay yours, and from now on they are paid from your own account.</p><p>— The ClipCut team</p>",
        links: [],
      },
    );
  return { ok: true, role: "owner" };
}

/** The last message to the address: what was deleted and what is kept. */
async function tellDeleted(env: AppEnv, to: string, byAdmin: boolean) {
  const who = byAdmin ? "Our support team deleted your ClipCut account." : "Your ClipCut account has been deleted.";
  const kept = `Your profile, clips and sessions are erased. Your invoices, payments and credit history are kept without your name or e-mail address for ${BILLING_RECORDS_YEARS} years, as tax law requires. This is the last e-mail we send to this address.`;
  try {
    await sendEmail(
      { env },
      {
        to,
        subject: "Your ClipCut account has been deleted",
        text: `${who} ${kept}\n\n— The ClipCut team`,
        html: `<p>${who} ${kept}</p><p>— The ClipCut team</p>`,
        links: [],
      },
    );
  } catch (error) {
    // The deletion does not wait on the mail provider.
    console.warn(JSON.stringify({ level: "warn", msg: "deletion e-mail not sent", error: String(error) }));
  }
}

/** "Download my data": every section of the person's own data, nothing of anyone else. */
export async function accountExport(db: Db, user: { id: string; sessionId: string }, now = new Date()) {
  const rows = await accountDataRows(db, user.id, now);
  const currentSession = user.sessionId;
  const profile = rows.profile;
  return {
    exportedAt: now.toISOString(),
    about:
      "Your ClipCut data: your profile, clips, credit history, invoices and payments, subscriptions, signed-in sessions, extension tokens, presets and team.",
    profile: profile && { ...profile, signsInWithGoogle: Boolean(profile.signsInWithGoogle) },
    clips: rows.clips.map((c) => ({ ...c, paidByTeam: Boolean(c.paidByTeam) })),
    creditHistory: rows.ledger,
    payments: rows.payments,
    subscriptions: rows.subscriptions,
    sessions: rows.sessions.map(({ id, ...session }) => ({ ...session, thisBrowser: id === currentSession })),
    extensionTokens: rows.tokens,
    presets: rows.presets,
    team: rows.team && {
      role: rows.team.role,
      joinedAt: rows.team.joinedAt,
      ...(rows.team.role === "owner" ? { people: rows.team.people } : {}),
    },
  };
}
