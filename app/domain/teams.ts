/** Pro teams: the team is the owner's account (plan, limits, balance); members clip on it. */
import { z } from "zod";
import type { Credits } from "./api";
import { effectivePlan, PLANS } from "./plans";

/** People in a team, the owner included. */
export const TEAM_SEATS = PLANS.Pro.teamMembers;
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const SEAT_LIMIT_MESSAGE = `A Pro team has at most ${TEAM_SEATS} members, you included.`;
export const TEAM_SUSPENDED_MESSAGE =
  "This team is suspended: its owner's plan is no longer Pro. Your clips are paid from your own account.";
export const TEAM_SUSPENDED_JOIN_MESSAGE = "This team is suspended: its owner is no longer on Pro.";
export const NOT_A_MEMBER_MESSAGE =
  "You are no longer a member of this team. Your clips are paid from your own account.";
export const INVITATION_INVALID_MESSAGE =
  "This invitation link is not valid any more: it was used, revoked or it expired.";
export const WRONG_ACCOUNT_MESSAGE =
  "This invitation was sent to another e-mail address. Sign in with the invited account to join.";
const HOUR_MS = 60 * 60 * 1000;
/**
 * Invitation e-mails (invites and resends, revoked ones still counted): an owner sends at most 10 an hour and 30 a
 * day; one address receives at most one an hour, whoever sends it.
 */
export const INVITATION_LIMITS = {
  ownerHour: { name: "team-invite-owner-hour", limit: 10, windowMs: HOUR_MS },
  ownerDay: { name: "team-invite-owner-day", limit: 30, windowMs: 24 * HOUR_MS },
  recipientHour: { name: "team-invite-recipient", limit: 1, windowMs: HOUR_MS },
} as const;
export const UNVERIFIED_OWNER_MESSAGE =
  "Confirm your e-mail address first: invitations name you by your confirmed address.";
export const ALREADY_IN_TEAM_MESSAGE = "You are already in a team. Leave it first to join another.";
/** An account is deleted only after its team ops ran (an owner's members left, a member left). */
export const TEAM_OPEN_MESSAGE = "The account is still in a team: its team must close, or it must leave it, first.";
export const OWNER_CANNOT_LEAVE_MESSAGE = "Remove the other members first: an owner cannot leave a team others are in.";

/** A team works only while its owner's plan is Pro; below it the team is suspended (members pay for themselves). */
export function teamActive(ownerPlan: string | null | undefined): boolean {
  return effectivePlan(ownerPlan) === "Pro";
}

/** Seats taken by members and pending invitations (the owner is one of the members). */
export function seatsLeft(members: number, pendingInvitations: number): number {
  return Math.max(0, TEAM_SEATS - members - pendingInvitations);
}

export const inviteEmailSchema = z.string().trim().toLowerCase().email("Enter a valid e-mail address.").max(254);

/** An invitation link's path. The only place sign-up may send a new account back to after it is confirmed. */
const JOIN_PATH = /^\/team\/join\/[A-Za-z0-9_-]{16,128}$/;
export const joinPathAfterSignup = (value: string | null | undefined): string | null =>
  value && JOIN_PATH.test(value) ? value : null;

/** A member's view of the account they clip on (the app layout's `team`): plan, shared balance, own usage. */
export interface TeamSummary {
  ownerId: string;
  ownerName: string;
  role: "owner" | "member";
  active: boolean;
  plan: string;
  credits: Credits;
  /** The signed-in person's own clips and credits from the team's balance this period. */
  usage: { clips: number; credits: number };
}

/** The team a person belongs to, as the admin's user dialog shows it. */
export interface TeamOfUser {
  ownerId: string;
  people: { id: string; fullName: string; email: string; role: "owner" | "member" }[];
}
