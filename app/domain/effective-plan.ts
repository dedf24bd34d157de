/**
 * What plan applies to a person — the one rule. A member of an active Pro team clips on the team's plan (its
 * owner's); everyone else, an owner, and a member of a suspended team (owner below Pro or banned) on their own.
 * `/api/v1/me`, presets, analytics, batch limits, quality, the pages and the ledger all ask this.
 */
import { effectivePlan, planLimits, PLANS, type PlanId } from "./plans";

export interface TeamStanding {
  role: "owner" | "member";
  ownerPlan: string;
  ownerBanned: boolean;
}

export interface PlanHolder {
  /** The person's own stored plan. */
  plan: string | null | undefined;
  team?: TeamStanding | null;
}

export interface AppliedPlan {
  plan: PlanId;
  /** True when the plan is the team's, not the person's own. */
  viaTeam: boolean;
  limits: ReturnType<typeof planLimits>;
  presets: boolean;
  analytics: boolean;
}

/** A team works only while its owner is on Pro and not banned. */
export const teamWorks = (team: Pick<TeamStanding, "ownerPlan" | "ownerBanned">) =>
  effectivePlan(team.ownerPlan) === "Pro" && !team.ownerBanned;

export function planOf(person: PlanHolder): AppliedPlan {
  const viaTeam = person.team?.role === "member" && teamWorks(person.team);
  const plan = viaTeam ? effectivePlan(person.team!.ownerPlan) : effectivePlan(person.plan);
  return { plan, viaTeam, limits: planLimits(plan), presets: PLANS[plan].presets, analytics: PLANS[plan].analytics };
}
