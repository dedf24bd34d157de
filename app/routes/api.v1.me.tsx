import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { MeResponse } from "~/domain/api";
import { getDb } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { requireApiUser } from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";
import { memberTeamSummary } from "~/services/teams.server";

/**
 * Who the token's owner is: plan, credits, limits and team as their ledger answered them with the token check; D1
 * gives only the profile (name, e-mail, role) and, for a team member, the owner's name and their own usage.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const caller = await requireApiUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const { standing } = caller;
  const [user, team] = await Promise.all([findUserById(db, caller.id), memberTeamSummary(db, caller.id, standing)]);
  if (!user) throw apiError(401, "unauthorized", "A valid extension token is required.");
  // A team member clips on the team's plan and balance; their own usage goes beside them.
  const body: MeResponse = {
    user: {
      id: user.id,
      email: user.email,
      fullName: user.fullName,
      plan: standing.applied.viaTeam ? standing.applied.plan : standing.plan,
      role: user.role,
    },
    credits: team?.credits ?? standing.credits,
    limits: standing.applied.limits,
    team: team ? { ownerName: team.ownerName, role: team.role, ownPlan: standing.plan, usage: team.usage } : null,
  };
  return apiJson(body);
}
