import { onlineUserIds, upsertSetting } from "~/db/admin.server";
import type { Db } from "~/db/client.server";
import { EXTENSION_ID_SETTING } from "~/domain/extension";
import type { AppEnv } from "~/load-context";
import { audit } from "./audit.server";
import { ledger } from "./ledger.server";
import { forgetExtensionId } from "./settings.server";
import { ADMIN_FEED_NAME } from "./realtime-control.server";

export const ACCOUNT_DETAILS_SETTING = "account_details";
const PUSH_CHUNK = 50;

/**
 * Stores the extension id, audits it and pushes it live: to admin pages through AdminFeed and to every open user
 * page through that user's UserLedger (users with an open page are the ones presence marks online). Pages switch
 * to the new id at once; a page that misses the push reads it on its next load.
 */
export async function saveExtensionId(
  ctx: { env: AppEnv; db: Db; adminId: string; ip?: string },
  extensionId: string,
): Promise<{ pages: number }> {
  await upsertSetting(ctx.db, EXTENSION_ID_SETTING, extensionId);
  forgetExtensionId();
  await audit(ctx.db, {
    action: "admin.settings_updated",
    actorId: ctx.adminId,
    ip: ctx.ip,
    details: { key: EXTENSION_ID_SETTING, value: extensionId },
  });
  const data = { extensionId };
  let pages = 0;
  try {
    pages += await ctx.env.ADMIN_FEED.get(ctx.env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME)).pushSettings(data);
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "settings push to admins failed", error: String(error) }));
  }
  const ids = await onlineUserIds(ctx.db);
  for (let i = 0; i < ids.length; i += PUSH_CHUNK) {
    const results = await Promise.all(ids.slice(i, i + PUSH_CHUNK).map((id) => ledger(ctx.env, id).pushSettings(data)));
    for (const r of results) if (typeof r === "number") pages += r;
  }
  return { pages };
}

export async function saveAccountDetails(
  ctx: { db: Db; adminId: string; ip?: string },
  details: Record<string, string>,
): Promise<void> {
  await upsertSetting(ctx.db, ACCOUNT_DETAILS_SETTING, JSON.stringify(details));
  await audit(ctx.db, {
    action: "admin.settings_updated",
    actorId: ctx.adminId,
    ip: ctx.ip,
    details: { key: ACCOUNT_DETAILS_SETTING },
  });
}
