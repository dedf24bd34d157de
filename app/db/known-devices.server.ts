import { and, eq } from "drizzle-orm";
import type { Db } from "./client.server";
import { knownDevices, users } from "./schema";

/** Whether this browser (by its device cookie's hash) has signed in to the account with this e-mail before. */
export async function isKnownDevice(db: Db, email: string, deviceHash: string): Promise<boolean> {
  const row = await db
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .innerJoin(users, eq(users.id, knownDevices.userId))
    .where(and(eq(users.email, email), eq(knownDevices.deviceHash, deviceHash)))
    .get();
  return Boolean(row);
}

export function rememberDevice(db: Db, userId: string, deviceHash: string, now = new Date()) {
  return db
    .insert(knownDevices)
    .values({ userId, deviceHash, lastSignInAt: now })
    .onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.deviceHash], set: { lastSignInAt: now } });
}
