import type { Db } from "~/db/client.server";
import { membershipOf } from "~/db/teams.server";
import { planOf, type AppliedPlan } from "~/domain/effective-plan";

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
