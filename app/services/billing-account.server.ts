import type { Db } from "~/db/client.server";
import { membershipOf, type Membership } from "~/db/teams.server";
import { teamWorks } from "~/domain/effective-plan";

/**
 * Which account pays for a person's clips, as pages show it (the member's team summary). A member of a team whose
 * owner is on Pro and not banned clips on the owner's account; everyone else on their own. The money path never
 * asks this: the member's own ledger knows its payer and forwards clip operations there (decision 010).
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
