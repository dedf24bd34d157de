import { getDb, type Db } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import type { PlanId } from "~/domain/plans";
import { PRESETS_PLAN_MESSAGE } from "~/domain/presets";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { apiError } from "./api-response.server";
import { appliedPlan } from "./plan.server";

/**
 * API v1 presets: the plan that applies to the caller (their own, or their active team's) is read from D1 on every
 * call (a downgrade takes effect at once) and Free, Basic and Plugin are refused with 403 plan_limit before anything
 * is read or written.
 */
export async function requirePresetsPlan(context: AppLoadContext, userId: string): Promise<{ db: Db; plan: PlanId }> {
  const db = getDb(context.cloudflare.env.DB);
  const user = await findUserById(db, userId);
  if (!user) throw apiError(401, "unauthorized", "A valid extension token is required.");
  const applied = await appliedPlan(db, user);
  if (!applied.presets) throw apiError(403, "plan_limit", PRESETS_PLAN_MESSAGE);
  return { db, plan: applied.plan };
}
