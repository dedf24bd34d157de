/**
 * "Who am I", answered by the person's own ledger from memory: their plan, balance, the plan that applies to them
 * and their team. Pages and the API read this one answer (the Worker adds the profile it read with the session or
 * token); a team member's ledger asks the owner's for the team's side (`PayerView`), the authority on it.
 */
import type { Credits } from "../api";
import { planOf, teamWorks, type AppliedPlan } from "../effective-plan";
import type { PlanId, StoredPlan } from "../plans";
import { creditsOf } from "./core";
import type { LedgerState } from "./types";

/** What a team owner's ledger tells a member's about the account they clip on. */
export interface PayerView {
  plan: StoredPlan;
  banned: boolean;
  /** Epoch ms; where "this period" of the team's usage starts (null: no paid period). */
  periodStart: number | null;
  credits: Credits;
}

export interface TeamView {
  role: "owner" | "member";
  ownerId: string;
  /** The team works: its owner on Pro and not banned. */
  active: boolean;
  /** A member of a working team: the owner's side (plan, period, shared balance); null otherwise. */
  payer: PayerView | null;
}

export interface Standing {
  plan: StoredPlan;
  pendingPlan: PlanId | null;
  /** The person's own balance (a member's team balance is `team.payer.credits`). */
  credits: Credits;
  /** The plan that applies: their own, or their working team's. */
  applied: AppliedPlan;
  team: TeamView | null;
}

export const payerViewOf = (state: LedgerState, now: number): PayerView => ({
  plan: state.user.plan,
  banned: state.user.banned,
  periodStart: state.user.periodStart,
  credits: creditsOf(state, now),
});

/**
 * The answer from this ledger's state. `payer`: the owner's view, asked of the owner's ledger for a member (null
 * when that ledger could not answer: the member's own memory of whether the team works decides then).
 */
export function standingOf(state: LedgerState, now: number, payer: PayerView | null): Standing {
  const { user } = state;
  const own = { plan: user.plan, pendingPlan: user.pendingPlan, credits: creditsOf(state, now) };
  if (state.payer) {
    const active = payer ? teamWorks({ ownerPlan: payer.plan, ownerBanned: payer.banned }) : state.payer.active;
    const ownerPlan = payer?.plan ?? (active ? "Pro" : "Free");
    return {
      ...own,
      applied: planOf({ plan: user.plan, team: { role: "member", ownerPlan, ownerBanned: payer?.banned ?? false } }),
      team: { role: "member", ownerId: state.payer.ownerId, active, payer: active ? payer : null },
    };
  }
  return {
    ...own,
    applied: planOf({ plan: user.plan }),
    team: state.ownsTeam
      ? {
          role: "owner",
          ownerId: user.id,
          active: teamWorks({ ownerPlan: user.plan, ownerBanned: user.banned }),
          payer: null,
        }
      : null,
  };
}
