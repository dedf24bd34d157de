import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { TEAM_SEATS, type TeamOfUser } from "~/domain/teams";
import type { Db } from "./client.server";
import { teamInvitations, teamMembers, users } from "./schema";

const pending = (now: Date) =>
  and(isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt), gt(teamInvitations.expiresAt, now));

/** Seats in use: every member row (the owner's included) plus live invitations, as SQL on `owner` (a bound id). */
const seatsSql = (owner: string) => `((SELECT count(*) FROM team_members WHERE owner_id = ${owner})
  + (SELECT count(*) FROM team_invitations WHERE owner_id = ${owner} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?2))`;

export interface Membership {
  ownerId: string;
  role: "owner" | "member";
  joinedAt: Date;
  owner: { fullName: string; email: string; plan: string; banned: boolean; periodStart: Date | null };
}

/** The team a person is in (as owner or member), with the owner's plan: null when in none. */
export async function membershipOf(db: Db, userId: string): Promise<Membership | null> {
  const row = await db
    .select({
      ownerId: teamMembers.ownerId,
      role: teamMembers.role,
      joinedAt: teamMembers.joinedAt,
      fullName: users.fullName,
      email: users.email,
      plan: users.plan,
      status: users.status,
      periodStart: users.planPeriodStart,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.ownerId))
    .where(eq(teamMembers.memberId, userId))
    .get();
  if (!row) return null;
  return {
    ownerId: row.ownerId,
    role: row.role,
    joinedAt: row.joinedAt,
    owner: {
      fullName: row.fullName,
      email: row.email,
      plan: row.plan,
      banned: row.status === "Banned",
      periodStart: row.periodStart,
    },
  };
}

export interface TeamMemberRow {
  id: string;
  fullName: string;
  email: string;
  role: "owner" | "member";
  joinedAt: Date;
  clips: number;
  credits: number;
}

/** The team's people, owner first, with the clips and credits each used from the team's balance since `since`. */
export async function teamMembersOf(db: Db, ownerId: string, since: Date): Promise<TeamMemberRow[]> {
  const people = await db
    .select({
      id: teamMembers.memberId,
      fullName: users.fullName,
      email: users.email,
      role: teamMembers.role,
      joinedAt: teamMembers.joinedAt,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.memberId))
    .where(eq(teamMembers.ownerId, ownerId))
    .orderBy(asc(teamMembers.joinedAt));
  const usage = await db.$client
    .prepare(
      `SELECT c.user_id AS id, count(*) AS clips, coalesce(sum(-l.delta), 0) AS credits
       FROM credit_ledger l JOIN clips c ON c.id = l.clip_id
       WHERE l.user_id = ? AND l.kind = 'clip' AND l.created_at >= ? GROUP BY c.user_id`,
    )
    .bind(ownerId, since.getTime())
    .all<{ id: string; clips: number; credits: number }>();
  const byId = new Map(usage.results.map((u) => [u.id, u]));
  return people
    .map((p) => ({ ...p, clips: byId.get(p.id)?.clips ?? 0, credits: byId.get(p.id)?.credits ?? 0 }))
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "owner" ? -1 : 1));
}

export type { TeamOfUser } from "~/domain/teams";

/** The team a person belongs to, owner first then by joining date (the admin's view); null when in none. */
export async function teamOfUser(db: Db, userId: string): Promise<TeamOfUser | null> {
  const membership = await membershipOf(db, userId);
  if (!membership) return null;
  const people = await db
    .select({ id: teamMembers.memberId, fullName: users.fullName, email: users.email, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.memberId))
    .where(eq(teamMembers.ownerId, membership.ownerId))
    .orderBy(asc(teamMembers.joinedAt));
  return {
    ownerId: membership.ownerId,
    people: people.sort((a, b) => (a.role === b.role ? 0 : a.role === "owner" ? -1 : 1)),
  };
}

export function pendingInvitations(db: Db, ownerId: string, now = new Date()) {
  return db
    .select({ id: teamInvitations.id, email: teamInvitations.email, expiresAt: teamInvitations.expiresAt })
    .from(teamInvitations)
    .where(and(eq(teamInvitations.ownerId, ownerId), pending(now)))
    .orderBy(asc(teamInvitations.createdAt));
}

/**
 * A new invitation, only while a seat is free (members plus live invitations below the limit), decided by one
 * statement; the owner's own row is created with the team's first invitation. False: the team is full.
 */
export async function insertInvitation(
  db: Db,
  row: { id: string; ownerId: string; email: string; tokenHash: string; expiresAt: Date },
  now = new Date(),
): Promise<boolean> {
  const d1 = db.$client;
  const [, inserted] = await d1.batch([
    d1
      .prepare("INSERT OR IGNORE INTO team_members (member_id, owner_id, role, joined_at) VALUES (?1, ?1, 'owner', ?2)")
      .bind(row.ownerId, now.getTime()),
    d1
      .prepare(
        `INSERT INTO team_invitations (id, owner_id, email, token_hash, invited_by, expires_at)
         SELECT ?3, ?1, ?4, ?5, ?1, ?6 WHERE ${seatsSql("?1")} < ${TEAM_SEATS}`,
      )
      .bind(row.ownerId, now.getTime(), row.id, row.email, row.tokenHash, row.expiresAt.getTime()),
  ]);
  return (inserted?.meta.changes ?? 0) === 1;
}

/** An invitation by its token's hash, with who sent it (whatever its state: the page explains a dead link). */
export function invitationByHash(db: Db, tokenHash: string) {
  return db
    .select({
      id: teamInvitations.id,
      ownerId: teamInvitations.ownerId,
      email: teamInvitations.email,
      expiresAt: teamInvitations.expiresAt,
      acceptedAt: teamInvitations.acceptedAt,
      revokedAt: teamInvitations.revokedAt,
      ownerName: users.fullName,
      ownerEmail: users.email,
      ownerPlan: users.plan,
    })
    .from(teamInvitations)
    .innerJoin(users, eq(users.id, teamInvitations.ownerId))
    .where(eq(teamInvitations.tokenHash, tokenHash))
    .get();
}

export async function revokeInvitation(db: Db, ownerId: string, id: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .update(teamInvitations)
    .set({ revokedAt: now })
    .where(and(eq(teamInvitations.id, id), eq(teamInvitations.ownerId, ownerId), pending(now)))
    .returning({ id: teamInvitations.id });
  return rows.length === 1;
}

/** A live invitation's address, or null (resend checks its limits before renewing). */
export async function pendingInvitationEmail(db: Db, ownerId: string, id: string, now = new Date()) {
  const row = await db
    .select({ email: teamInvitations.email })
    .from(teamInvitations)
    .where(and(eq(teamInvitations.id, id), eq(teamInvitations.ownerId, ownerId), pending(now)))
    .get();
  return row?.email ?? null;
}

/** A live invitation gets a new token and 7 more days; the old link stops working. Its e-mail, or null. */
export async function renewInvitation(
  db: Db,
  input: { ownerId: string; id: string; tokenHash: string; expiresAt: Date },
  now = new Date(),
): Promise<string | null> {
  const row = await db
    .update(teamInvitations)
    .set({ tokenHash: input.tokenHash, expiresAt: input.expiresAt })
    .where(and(eq(teamInvitations.id, input.id), eq(teamInvitations.ownerId, input.ownerId), pending(now)))
    .returning({ email: teamInvitations.email })
    .get();
  return row?.email ?? null;
}

/** The e-mails of a team's members (not the owner): told when the team is suspended. */
export async function memberEmails(db: Db, ownerId: string): Promise<{ id: string; email: string }[]> {
  return db
    .select({ id: users.id, email: users.email })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.memberId))
    .where(and(eq(teamMembers.ownerId, ownerId), eq(teamMembers.role, "member")));
}
