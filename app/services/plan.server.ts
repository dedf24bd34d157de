import type { Db } from "~/db/client.server";
import { membershipOf } from "~/db/teams.server";
import type { HoldRequest } from "~/domain/api";
import { clipTerms, type ClipTerms } from "~/domain/clip-quality";
import { planOf, type AppliedPlan } from "~/domain/effective-plan";
import { findUserById } from "~/db/user-access.server";

/** The plan that applies to a signed-in person (their own, or their active team's): `planOf` with their team read. */
export async function appliedPlan(db: Db, user: { id: string; plan: string }): Promise<AppliedPlan> {
  const membership = await membershipOf(db, user.id);
  return planOf({
    plan: user.plan,
    team: membership && {
      role: membership.role,
      ownerPlan: membership.owner.plan,
      ownerBanned: membership.owner.banned,
    },
  });
}

/**
 * The terms a companion job cuts with (quality, scale, watermark), decided by the one rule on the plan that applies
 * to the caller; null when the account is gone. The ledger checks the resulting clip against the plan again.
 */
export async function holdTerms(db: Db, userId: string, hold: HoldRequest): Promise<ClipTerms | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const { limits } = await appliedPlan(db, user);
  return clipTerms({ format: hold.format, asked: hold.quality, sourceHeight: hold.sourceHeight ?? null, limits });
}
