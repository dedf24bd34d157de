import type { Db } from "~/db/client.server";
import { verifiedEmailOf } from "~/db/users.server";
import {
  insertInvitation,
  invitationByHash,
  membershipOf,
  pendingInvitationEmail,
  memberEmails,
  renewInvitation,
  revokeInvitation,
  teamMembersOf,
} from "~/db/teams.server";
import { effectivePlan, PLAN_PERIOD_MS } from "~/domain/plans";
import {
  ALREADY_IN_TEAM_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  INVITATION_TTL_MS,
  OWNER_CANNOT_LEAVE_MESSAGE,
  INVITATION_LIMITS,
  SEAT_LIMIT_MESSAGE,
  teamActive,
  UNVERIFIED_OWNER_MESSAGE,
  WRONG_ACCOUNT_MESSAGE,
  type TeamSummary,
} from "~/domain/teams";
import type { Standing } from "~/domain/ledger";
import type { AppEnv } from "~/load-context";
import { randomToken, sha256Hex } from "~/utils/crypto";
import { audit } from "./audit.server";
import { ledger } from "./ledger.server";
import { actionEmail, sendEmail } from "./email.server";
import { hitRateLimit, refundRateLimit, retryMessage } from "./rate-limit.server";

type Ctx = { env: AppEnv; db: Db; origin: string; ip?: string };
export type TeamResult = { ok: true; message: string } | { ok: false; status: number; message: string };
const ok = (message: string): TeamResult => ({ ok: true, message });
const refused = (status: number, message: string): TeamResult => ({ ok: false, status, message });

/** Where "this period" starts for a team's usage: the owner's plan period, else the last 30 days. */
export const periodSince = (periodStart: Date | null, now = Date.now()) =>
  periodStart ?? new Date(now - PLAN_PERIOD_MS);

/**
 * May this owner send an invitation e-mail to this address now? Counted per owner (hour and day) and per recipient
 * (hour); null when it may. Revoking an invitation does not give its e-mail back.
 */
async function invitationLimit(ctx: Ctx, ownerId: string, to: string): Promise<TeamResult | null> {
  const recipient = to.toLowerCase();
  const { ownerHour, ownerDay, recipientHour } = INVITATION_LIMITS;
  const forRecipient = await hitRateLimit(ctx.env.DB, recipientHour, recipient);
  if (!forRecipient.ok)
    return refused(
      429,
      `An invitation was sent to ${recipient} less than an hour ago. ${retryMessage(forRecipient.retryAfterSeconds).replace("Too many attempts. ", "")}`,
    );
  for (const rule of [ownerHour, ownerDay]) {
    const forOwner = await hitRateLimit(ctx.env.DB, rule, ownerId);
    if (!forOwner.ok) {
      await refundRateLimit(ctx.env.DB, recipientHour, recipient);
      return refused(
        429,
        `You have sent ${rule.limit} invitations in ${rule === ownerHour ? "an hour" : "a day"}, the most allowed. ${retryMessage(forOwner.retryAfterSeconds).replace("Too many attempts. ", "")}`,
      );
    }
  }
  return null;
}

/** The invitation names its sender by their confirmed address only: a display name is free text anyone can set. */
async function sendInvitation(ctx: Ctx, to: string, ownerEmail: string, token: string) {
  await sendEmail(
    ctx,
    actionEmail({
      to,
      subject: "You are invited to a ClipCut Pro team",
      intro: `The ClipCut account ${ownerEmail} invites you to clip on their ClipCut Pro team: their plan and their shared credits.`,
      action: "Join the team",
      url: `${ctx.origin}/team/join/${token}`,
      outro:
        "The link works once, for this e-mail address, and expires in 7 days. If you do not know this address or do not want to join, ignore this e-mail.",
    }),
  );
}

/** The owner invites an address: only on Pro, only with a free seat (counted again when it is accepted). */
export async function invite(
  ctx: Ctx,
  owner: { id: string; email: string; fullName: string; plan: string },
  email: string,
): Promise<TeamResult> {
  if (!teamActive(owner.plan)) return refused(403, "Teams are part of the Pro plan.");
  if (email.toLowerCase() === owner.email.toLowerCase()) return refused(400, "You are already in your team.");
  const membership = await membershipOf(ctx.db, owner.id);
  if (membership && membership.role !== "owner") return refused(409, ALREADY_IN_TEAM_MESSAGE);
  const ownerEmail = await verifiedEmailOf(ctx.db, owner.id);
  if (!ownerEmail) return refused(403, UNVERIFIED_OWNER_MESSAGE);
  const limited = await invitationLimit(ctx, owner.id, email);
  if (limited) return limited;
  const token = randomToken(32);
  const id = crypto.randomUUID();
  const now = new Date();
  const created = await insertInvitation(
    ctx.db,
    {
      id,
      ownerId: owner.id,
      email,
      tokenHash: await sha256Hex(token),
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    },
    now,
  );
  if (!created) return refused(409, SEAT_LIMIT_MESSAGE);
  await sendInvitation(ctx, email, ownerEmail, token);
  await audit(ctx.db, {
    action: "team.invited",
    actorId: owner.id,
    subjectId: owner.id,
    ip: ctx.ip,
    details: { email },
  });
  return ok(`Invitation sent to ${email}.`);
}

export async function resend(ctx: Ctx, owner: { id: string; email: string; fullName: string }, invitationId: string) {
  const ownerEmail = await verifiedEmailOf(ctx.db, owner.id);
  if (!ownerEmail) return refused(403, UNVERIFIED_OWNER_MESSAGE);
  const pending = await pendingInvitationEmail(ctx.db, owner.id, invitationId);
  if (!pending) return refused(404, "That invitation is no longer pending.");
  const limited = await invitationLimit(ctx, owner.id, pending);
  if (limited) return limited;
  const token = randomToken(32);
  const email = await renewInvitation(ctx.db, {
    ownerId: owner.id,
    id: invitationId,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
  });
  if (!email) return refused(404, "That invitation is no longer pending.");
  await sendInvitation(ctx, email, ownerEmail, token);
  await audit(ctx.db, {
    action: "team.invitation_resent",
    actorId: owner.id,
    subjectId: owner.id,
    ip: ctx.ip,
    details: { email },
  });
  return ok(`Invitation sent again to ${email}.`);
}

export async function revoke(ctx: Ctx, ownerId: string, invitationId: string): Promise<TeamResult> {
  if (!(await revokeInvitation(ctx.db, ownerId, invitationId)))
    return refused(404, "That invitation is no longer pending.");
  await audit(ctx.db, {
    action: "team.invitation_revoked",
    actorId: ownerId,
    subjectId: ownerId,
    ip: ctx.ip,
    details: { invitationId },
  });
  return ok("Invitation revoked.");
}

/** What the join page shows for a link: the invitation, or why it cannot be used. */
export async function invitationForToken(db: Db, token: string) {
  const row = await invitationByHash(db, await sha256Hex(token));
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return row;
}

/**
 * Joins the team of a live invitation sent to this account's address. The owner's ledger decides it (the seat
 * count, the invitation, the person in no team) in its queue, and tells the member's ledger who pays now.
 */
export async function join(
  ctx: Ctx,
  user: { id: string; email: string },
  token: string,
): Promise<TeamResult & { ownerId?: string }> {
  const invitation = await invitationForToken(ctx.db, token);
  if (!invitation) return refused(410, INVITATION_INVALID_MESSAGE);
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) return refused(403, WRONG_ACCOUNT_MESSAGE);
  const joined = await ledger(ctx.env, invitation.ownerId).teamJoin({
    invitationId: invitation.id,
    memberId: user.id,
    email: user.email,
  });
  if (!joined.ok) return refused(joined.status, joined.message);
  if (!joined.replayed)
    await audit(ctx.db, { action: "team.joined", actorId: user.id, subjectId: invitation.ownerId, ip: ctx.ip });
  return { ...ok(`You joined ${invitation.ownerName}'s team.`), ownerId: invitation.ownerId };
}

/** The owner removes a member (never themselves). The member's open holds stay on the team's ledger and settle there. */
export async function removeMember(ctx: Ctx, ownerId: string, memberId: string): Promise<TeamResult> {
  if (memberId === ownerId) return refused(400, OWNER_CANNOT_LEAVE_MESSAGE);
  const removed = await ledger(ctx.env, ownerId).teamRemove({ memberId });
  if (!removed.ok) return refused(removed.status, removed.message);
  await audit(ctx.db, { action: "team.member_removed", actorId: ownerId, subjectId: memberId, ip: ctx.ip });
  return ok("Member removed.");
}

/** A member leaves; an owner may only close a team nobody else is in. Both are the owner's ledger's operations. */
export async function leave(ctx: Ctx, userId: string): Promise<TeamResult> {
  const membership = await membershipOf(ctx.db, userId);
  if (!membership) return refused(404, "You are not in a team.");
  if (membership.role === "owner") {
    const closed = await ledger(ctx.env, userId).teamClose({});
    if (!closed.ok) return refused(closed.status, closed.message);
    await audit(ctx.db, { action: "team.dissolved", actorId: userId, subjectId: userId, ip: ctx.ip });
    return ok("Your team is closed.");
  }
  const left = await ledger(ctx.env, membership.ownerId).teamRemove({ memberId: userId, leaving: true });
  if (!left.ok) return refused(left.status, left.message);
  await audit(ctx.db, { action: "team.left", actorId: userId, subjectId: membership.ownerId, ip: ctx.ip });
  return ok("You left the team. Your clips are paid from your own account again.");
}

/**
 * The owner's plan went below Pro or the owner was banned (the team is suspended: each member's ledger was told, so
 * members pay for themselves from their next call), or the team works again. Tells the members by e-mail and
 * writes the audit entry. Run by the owner's ledger after the commit that changed it (a `teamStatus` effect).
 */
export async function noticeTeamStatus(ctx: Omit<Ctx, "origin">, ownerId: string, plan: string, active: boolean) {
  const members = await memberEmails(ctx.db, ownerId);
  if (members.length === 0) return;
  const suspended = !active;
  await audit(ctx.db, {
    action: "team.suspended",
    subjectId: ownerId,
    details: { suspended, plan: effectivePlan(plan), members: members.length },
  });
  if (!suspended) return;
  for (const member of members)
    await sendEmail(ctx, {
      to: member.email,
      subject: "Your ClipCut team is suspended",
      text: "The owner of your ClipCut team is no longer on the Pro plan, so the team is suspended. Your clips are paid from your own account until the owner is on Pro again.\n\n— The ClipCut team",
      html: "<p>The owner of your ClipCut team is no longer on the Pro plan, so the team is suspended. Your clips are paid from your own account until the owner is on Pro again.</p><p>— The ClipCut team</p>",
      links: [],
    });
}

/**
 * A Pro team owner's people, owner first, with the clips and credits each used from the team's balance since
 * `since` (their Analytics). Null for anyone else, and for a team of one.
 */
export async function teamFiguresForOwner(db: Db, userId: string, since: Date) {
  const membership = await membershipOf(db, userId);
  if (membership?.role !== "owner") return null;
  const people = await teamMembersOf(db, userId, since);
  return people.length > 1 ? people : null;
}

export type { TeamSummary } from "~/domain/teams";

/**
 * A member's view of the account they clip on: the team's plan and shared balance as the ledgers answered them
 * (`standing`), with the owner's name and the member's own usage this period read from D1. Null for anyone who pays
 * for themselves (no team, an owner, a suspended team).
 */
export async function memberTeamSummary(
  db: Db,
  userId: string,
  standing: Standing,
  now = Date.now(),
): Promise<TeamSummary | null> {
  const team = standing.team;
  if (team?.role !== "member" || !team.active || !team.payer) return null;
  const since = periodSince(team.payer.periodStart === null ? null : new Date(team.payer.periodStart), now);
  const people = await teamMembersOf(db, team.ownerId, since);
  const me = people.find((p) => p.id === userId);
  return {
    ownerId: team.ownerId,
    ownerName: people.find((p) => p.role === "owner")?.fullName ?? "",
    role: team.role,
    active: team.active,
    plan: team.payer.plan,
    credits: team.payer.credits,
    usage: { clips: me?.clips ?? 0, credits: me?.credits ?? 0 },
  };
}
