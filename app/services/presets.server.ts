import { getDb, type Db } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { presetsAllowed, PRESETS_PLAN_MESSAGE } from "~/domain/presets";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { apiError } from "./api-response.server";

/**
 * API v1 presets: the caller's plan is read from D1 on every call (a downgrade takes effect at once) and Free, Basic
 * and Plugin are refused with 403 plan_limit before anything is read or written.
 */
export async function requirePresetsPlan(context: AppLoadContext, userId: string): Promise<{ db: Db; plan: string }> {
  const db = getDb(context.cloudflare.env.DB);
  const user = await findUserById(db, userId);
  if (!user) throw apiError(401, "unauthorized", "A valid extension token is required.");
  if (!presetsAllowed(user.plan)) throw apiError(403, "plan_limit", PRESETS_PLAN_MESSAGE);
  return { db, plan: user.plan };
}
