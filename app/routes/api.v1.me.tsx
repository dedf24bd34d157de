import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { MeResponse } from "~/domain/api";
import type { StoredPlan } from "~/domain/plans";
import { getDb } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { requireApiUser } from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";
import { appliedPlan } from "~/services/plan.server";
import { memberTeamSummary } from "~/services/teams.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const caller = await requireApiUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const user = await findUserById(db, caller.id);
  if (!user) throw apiError(401, "unauthorized", "A valid extension token is required.");
  const [applied, team] = await Promise.all([appliedPlan(db, user), memberTeamSummary(db, caller.id)]);
  // A team member clips on the team's plan and balance; their own usage goes beside them.
  const plan: StoredPlan = applied.viaTeam ? applied.plan : (user.plan as StoredPlan);
  const body: MeResponse = {
    user: { id: user.id, email: user.email, fullName: user.fullName, plan, role: user.role },
    credits: team?.credits ?? caller.credits,
    limits: applied.limits,
    team: team ? { ownerName: team.ownerName, role: team.role, ownPlan: user.plan, usage: team.usage } : null,
  };
  return apiJson(body);
}
