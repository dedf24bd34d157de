/** The user row outside the ledger: presence, last seen, profile and preferences. */
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "./client.server";
import { users } from "./schema";

/** Online/offline for the admin list. Conditional, so a presence write can never undo a ban. */
export async function setPresence(db: Db, userId: string, online: boolean, now = new Date()): Promise<void> {
  await db
    .update(users)
    .set({ status: online ? "online" : "offline", lastSeen: now })
    .where(and(eq(users.id, userId), ne(users.status, "Banned")));
}

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
