/** The user row outside the ledger: last seen, profile and preferences (presence and access: user-access.server.ts). */
import { eq } from "drizzle-orm";
import type { Db } from "./client.server";
import { users } from "./schema";

export async function touchLastSeen(db: Db, userId: string, now = new Date()): Promise<void> {
  await db.update(users).set({ lastSeen: now }).where(eq(users.id, userId));
}

export async function saveTimeZone(db: Db, userId: string, timeZone: string): Promise<void> {
  await db.update(users).set({ timeZone }).where(eq(users.id, userId));
}

export async function saveFullName(db: Db, userId: string, fullName: string): Promise<void> {
  await db.update(users).set({ fullName, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function saveLowCreditAlerts(db: Db, userId: string, on: boolean): Promise<void> {
  await db.update(users).set({ lowCreditAlerts: on, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** The user's e-mail address if they confirmed it, else null (what may name them to someone else). */
export async function verifiedEmailOf(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return row?.verifiedAt ? row.email : null;
}
