import { getDb, type Db } from "~/db/client.server";
import type { PlanId } from "~/domain/plans";
import { PRESETS_PLAN_MESSAGE } from "~/domain/presets";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { apiError } from "./api-response.server";
import type { ApiCaller } from "./api-tokens.server";

/**
 * API v1 presets: the plan that applies to the caller (their own, or their active team's) as their ledger answered it
 * with the token check on this very request (a downgrade takes effect at once), and Free, Basic and Plugin are
 * refused with 403 plan_limit before anything is read or written.
 */
export function requirePresetsPlan(context: AppLoadContext, caller: ApiCaller): { db: Db; plan: PlanId } {
  const applied = caller.standing.applied;
  if (!applied.presets) throw apiError(403, "plan_limit", PRESETS_PLAN_MESSAGE);
  return { db: getDb(context.cloudflare.env.DB), plan: applied.plan };
}
