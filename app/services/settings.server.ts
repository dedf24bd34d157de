import { readSettings } from "~/db/admin.server";
import type { Db } from "~/db/client.server";
import { EXTENSION_ID_SETTING } from "~/domain/extension";
import { allowedExtensionIds, chooseExtensionId } from "~/domain/extension-allow-list";
import type { AppEnv } from "~/load-context";

/** The ids this deployment may hand tokens to (EXTENSION_IDS, and the dev id in local mode). */
export const deployedExtensionIds = (env: AppEnv) => allowedExtensionIds(env.EXTENSION_IDS, env.APP_MODE === "local");

/**
 * The extension id every signed-in page needs, kept per isolate for a short while so a page load costs no D1 read
 * for it. A change reaches open pages at once through the settings push; an isolate that did not make the change
 * serves the old id for at most EXTENSION_ID_TTL_MS.
 */
const EXTENSION_ID_TTL_MS = 30_000;
let cached: { value: string | null; readAt: number } | null = null;

/** The id pages hand tokens to: the stored choice only if this deployment allows it ("" = none allowed). */
export async function getExtensionId(db: Db, env: AppEnv, now = Date.now()): Promise<string> {
  if (!cached || now - cached.readAt >= EXTENSION_ID_TTL_MS) {
    const value = (await readSettings(db, [EXTENSION_ID_SETTING])).get(EXTENSION_ID_SETTING) ?? null;
    cached = { value, readAt: now };
  }
  return chooseExtensionId(cached.value, deployedExtensionIds(env));
}

/** This isolate saved a new id: its next page load reads it. */
export function forgetExtensionId(): void {
  cached = null;
}
