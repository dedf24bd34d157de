import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { settings } from "~/db/schema";
import { DEFAULT_EXTENSION_ID, EXTENSION_ID_SETTING } from "~/domain/extension";

export async function getExtensionId(db: Db): Promise<string> {
  const row = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, EXTENSION_ID_SETTING))
    .get();
  return row?.value || DEFAULT_EXTENSION_ID;
}
