/**
 * A person's own data, read for "Download my data" and erased when their account is deleted. Money-like state
 * (credits, holds, clips, the ledger rows, paid lines, team membership) is not written here: the user's ledger and
 * the team ops change it (`closeAccount`, `teamRemove`, `teamClose`). What stays is kept anonymised by these writes.
 */
import { and, asc, count, desc, eq, gt, or, sql } from "drizzle-orm";
import { DELETED_NAME, erasedEmail } from "~/domain/account-deletion";
import type { Db } from "./client.server";
import {
  apiTokens,
  auditLog,
  billingAlerts,
  billingPayments,
  billingSubscriptions,
  clips,
  contactMessages,
  creditLedger,
  emailTokens,
  knownDevices,
  notifyRequests,
  presets,
  rateLimits,
  sessions,
  teamInvitations,
  teamMembers,
  users,
} from "./schema";

/** Everything "Download my data" holds, read in one batch; only rows of this person, and no other person's fields. */
export async function accountDataRows(db: Db, userId: string, now = new Date()) {
  const [profile, clipRows, ledgerRows, paymentRows, subscriptionRows, sessionRows, tokenRows, presetRows, team] =
    await db.batch([
      db
        .select({
          id: users.id,
          email: users.email,
          fullName: users.fullName,
          emailVerifiedAt: users.emailVerifiedAt,
          signsInWithGoogle: sql<number>`${users.googleSub} is not null`,
          role: users.role,
          plan: users.plan,
          pendingPlan: users.pendingPlan,
          planPeriodStart: users.planPeriodStart,
          planPeriodEnd: users.planPeriodEnd,
          credits: users.credits,
          lowCreditAlerts: users.lowCreditAlerts,
          timeZone: users.timeZone,
          createdAt: users.createdAt,
          lastSeen: users.lastSeen,
        })
        .from(users)
        .where(eq(users.id, userId)),
      db
        .select({
          id: clips.id,
          name: clips.name,
          videoUrl: clips.videoUrl,
          startSeconds: clips.startTimeSeconds,
          endSeconds: clips.endTimeSeconds,
          format: clips.format,
          quality: clips.quality,
          cost: clips.cost,
          status: clips.status,
          aspect: clips.aspect,
          cropPosition: clips.cropPosition,
          captionsTrack: clips.captionsTrack,
          captionsMode: clips.captionsMode,
          captionsSrt: clips.captionsSrt,
          // Whether the team's balance paid for it (never whose balance that was).
          paidByTeam: sql<number>`${clips.payerId} is not null and ${clips.payerId} != ${clips.userId}`,
          createdAt: clips.createdAt,
        })
        .from(clips)
        .where(eq(clips.userId, userId))
        .orderBy(desc(clips.createdAt)),
      // The actor of a row (an admin, a team member) is another person: not part of this export.
      db
        .select({
          delta: creditLedger.delta,
          balanceAfter: creditLedger.balanceAfter,
          kind: creditLedger.kind,
          description: creditLedger.description,
          clipId: creditLedger.clipId,
          createdAt: creditLedger.createdAt,
        })
        .from(creditLedger)
        .where(eq(creditLedger.userId, userId))
        .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id)),
      db
        .select({
          id: billingPayments.id,
          kind: billingPayments.kind,
          number: billingPayments.number,
          description: billingPayments.description,
          status: billingPayments.status,
          amountCents: billingPayments.amountCents,
          refundedCents: billingPayments.refundedCents,
          currency: billingPayments.currency,
          credits: billingPayments.credits,
          invoiceUrl: billingPayments.invoiceUrl,
          createdAt: billingPayments.createdAt,
          paidAt: billingPayments.paidAt,
        })
        .from(billingPayments)
        .where(eq(billingPayments.userId, userId))
        .orderBy(desc(billingPayments.createdAt)),
      db
        .select({
          id: billingSubscriptions.id,
          status: billingSubscriptions.status,
          plan: billingSubscriptions.plan,
          interval: billingSubscriptions.interval,
          pendingPlan: billingSubscriptions.pendingPlan,
          currentPeriodStart: billingSubscriptions.currentPeriodStart,
          currentPeriodEnd: billingSubscriptions.currentPeriodEnd,
        })
        .from(billingSubscriptions)
        .where(eq(billingSubscriptions.userId, userId))
        .orderBy(desc(billingSubscriptions.updatedAt)),
      // The session id is a hash of a cookie: not shown, even to its owner.
      db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          lastActiveAt: sessions.lastActiveAt,
          expiresAt: sessions.expiresAt,
          userAgent: sessions.userAgent,
          ip: sessions.ip,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.createdAt)),
      db
        .select({
          createdAt: apiTokens.createdAt,
          lastUsedAt: apiTokens.lastUsedAt,
          expiresAt: apiTokens.expiresAt,
          revokedAt: apiTokens.revokedAt,
        })
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(desc(apiTokens.createdAt)),
      db
        .select({
          name: presets.name,
          format: presets.format,
          quality: presets.quality,
          clipSeconds: presets.clipSeconds,
          aspect: presets.aspect,
          cropPosition: presets.cropPosition,
          captionsTrack: presets.captionsTrack,
          captionsMode: presets.captionsMode,
          captionsSrt: presets.captionsSrt,
          createdAt: presets.createdAt,
        })
        .from(presets)
        .where(eq(presets.userId, userId))
        .orderBy(asc(presets.createdAt)),
      // The person's place in a team, and for an owner how many people it has (not who they are).
      db
        .select({
          role: teamMembers.role,
          joinedAt: teamMembers.joinedAt,
          people: sql<number>`(select count(*) from team_members t where t.owner_id = ${teamMembers.ownerId})`,
        })
        .from(teamMembers)
        .where(eq(teamMembers.memberId, userId)),
    ]);
  return {
    profile: profile[0] ?? null,
    clips: clipRows,
    ledger: ledgerRows,
    payments: paymentRows,
    subscriptions: subscriptionRows,
    sessions: sessionRows,
    tokens: tokenRows,
    presets: presetRows,
    team: team[0] ?? null,
  };
}

/** Whether another active admin than this one exists (an admin account is deleted only then). */
export async function anotherActiveAdmin(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), sql`${users.status} != 'Banned'`, sql`${users.id} != ${userId}`))
    .get();
  return (row?.n ?? 0) > 0;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` without any of `words`, matched in any case. */
function without(text: string, words: string[]): string {
  return words.reduce((out, word) => out.replace(new RegExp(escapeRegExp(word), "gi"), "[deleted]"), text);
}

/**
 * Erases a deleted person's data that is not the ledger's: the profile is anonymised (the row stays: ledger rows,
 * paid lines, payments and invoices point at it and are kept, as the law requires), and what only served the
 * person goes — sessions, extension tokens, e-mail links, known browsers, presets, invitations to or from them,
 * contact messages and "Notify Me" requests from their address, and rate-limit counters keyed by it. Security log
 * entries stay without the person's e-mail, name or IP address; billing alerts without the e-mail or name.
 */
export async function eraseAccountData(
  db: Db,
  person: { userId: string; email: string; fullName: string },
  now = new Date(),
): Promise<void> {
  const { userId } = person;
  const email = person.email.toLowerCase();
  // The e-mail everywhere it is written; the name only in entries about this person (others may share a name).
  const named = [person.fullName.trim()].filter((n) => n.length >= 3 && n !== DELETED_NAME);
  const [auditRows, alertRows] = await db.batch([
    db
      .select({
        id: auditLog.id,
        details: auditLog.details,
        aboutThem: sql<number>`${auditLog.actorId} = ${userId} or ${auditLog.subjectId} = ${userId}`,
      })
      .from(auditLog)
      .where(
        or(
          sql`instr(lower(${auditLog.details}), ${email}) > 0`,
          and(
            or(eq(auditLog.actorId, userId), eq(auditLog.subjectId, userId)),
            sql`instr(lower(${auditLog.details}), ${named[0]?.toLowerCase() ?? email}) > 0`,
          ),
        ),
      ),
    db
      .select({ id: billingAlerts.id, detail: billingAlerts.detail })
      .from(billingAlerts)
      .where(
        or(
          sql`instr(lower(${billingAlerts.detail}), ${email}) > 0`,
          and(
            eq(billingAlerts.userId, userId),
            sql`instr(lower(${billingAlerts.detail}), ${named[0]?.toLowerCase() ?? email}) > 0`,
          ),
        ),
      ),
  ]);
  await db.batch([
    db
      .update(users)
      .set({
        email: erasedEmail(userId),
        fullName: DELETED_NAME,
        passwordHash: null,
        googleSub: null,
        emailVerifiedAt: null,
        role: "user",
        lowCreditAlerts: false,
        timeZone: null,
        lastSeen: null,
        updatedAt: now,
      })
      .where(eq(users.id, userId)),
    db.delete(sessions).where(eq(sessions.userId, userId)),
    db.delete(apiTokens).where(eq(apiTokens.userId, userId)),
    db.delete(emailTokens).where(eq(emailTokens.userId, userId)),
    db.delete(knownDevices).where(eq(knownDevices.userId, userId)),
    db.delete(presets).where(eq(presets.userId, userId)),
    db
      .delete(teamInvitations)
      .where(or(eq(teamInvitations.ownerId, userId), sql`lower(${teamInvitations.email}) = ${email}`)),
    db.delete(contactMessages).where(sql`lower(${contactMessages.email}) = ${email}`),
    db.delete(notifyRequests).where(sql`lower(${notifyRequests.email}) = ${email}`),
    db.delete(rateLimits).where(sql`instr(lower(${rateLimits.key}), ${email}) > 0`),
    db.update(auditLog).set({ ip: null }).where(eq(auditLog.actorId, userId)),
    ...auditRows.map((row) =>
      db
        .update(auditLog)
        .set({ details: without(row.details ?? "", row.aboutThem ? [email, ...named] : [email]) })
        .where(eq(auditLog.id, row.id)),
    ),
    ...alertRows.map((row) =>
      db
        .update(billingAlerts)
        .set({ detail: without(row.detail, [email, ...named]) })
        .where(eq(billingAlerts.id, row.id)),
    ),
  ]);
}
