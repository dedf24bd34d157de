import { readSettings } from "~/db/admin.server";
import type { Db } from "~/db/client.server";
import { DEFAULT_EXTENSION_ID, EXTENSION_ID_SETTING } from "~/domain/extension";

/**
 * The extension id every signed-in page needs, kept per isolate for a short while so a page load costs no D1 read
 * for it. A change reaches open pages at once through the settings push; an isolate that did not make the change
 * serves the old id for at most EXTENSION_ID_TTL_MS.
 */
const EXTENSION_ID_TTL_MS = 30_000;
let cached: { value: string; readAt: number } | null = null;

export async function getExtensionId(db: Db, now = Date.now()): Promise<string> {
  if (cached && now - cached.readAt < EXTENSION_ID_TTL_MS) return cached.value;
  const value = (await readSettings(db, [EXTENSION_ID_SETTING])).get(EXTENSION_ID_SETTING) || DEFAULT_EXTENSION_ID;
  cached = { value, readAt: now };
  return value;
}

/** This isolate saved a new id: its next page load reads it. */
export function forgetExtensionId(): void {
  cached = null;
}
