import type { Db } from "~/db/client.server";
import { membershipOf, type Membership } from "~/db/teams.server";
import { teamWorks } from "~/domain/effective-plan";

/**
 * Which account pays for a person's clips — the one place this rule lives. A member of a team whose owner's plan is
 * Pro clips on the owner's account (plan, limits, balance: the owner's ledger); everyone else, and every member of a
 * suspended team, on their own. The owner's ledger checks the plan again when it decides (`creatorId`).
 */
export interface BillingAccount {
  /** The ledger that pays. */
  payerId: string;
  /** The member who asked, when the payer is someone else's account; null when paying for oneself. */
  creatorId: string | null;
  team: (Membership & { active: boolean }) | null;
}

export async function billingAccount(db: Db, userId: string): Promise<BillingAccount> {
  const membership = await membershipOf(db, userId);
  if (!membership) return { payerId: userId, creatorId: null, team: null };
  const active = teamWorks({ ownerPlan: membership.owner.plan, ownerBanned: membership.owner.banned });
  const team = { ...membership, active };
  if (membership.role === "member" && active) return { payerId: membership.ownerId, creatorId: userId, team };
  return { payerId: userId, creatorId: null, team };
}
