import { and, desc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "./client.server";
import { emailTokens } from "./schema";

export type EmailTokenPurpose = (typeof emailTokens.$inferSelect)["purpose"];
export type EmailTokenRow = typeof emailTokens.$inferSelect;

const live = (purpose: EmailTokenPurpose, now: Date) =>
  and(eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now));

export function insertEmailToken(db: Db, row: typeof emailTokens.$inferInsert) {
  return db.insert(emailTokens).values(row);
}

/** Marks every unused token of this purpose of the user as used (a newer one replaces them, or they are moot). */
export function retireEmailTokens(db: Db, userId: string, purpose: EmailTokenPurpose, now = new Date()) {
  return db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

/** A valid, unused, unexpired token by the hash of its value (without using it up). */
export function findLiveEmailToken(db: Db, tokenHash: string, purpose: EmailTokenPurpose, now = new Date()) {
  return db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), live(purpose, now)))
    .get();
}

/** Uses the token up, atomically: of two concurrent uses only one gets the row back. */
export function consumeEmailTokenRow(db: Db, tokenHash: string, purpose: EmailTokenPurpose, now = new Date()) {
  return db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, tokenHash), live(purpose, now)))
    .returning()
    .get();
}

/** The pending password of the newest live verification link that carries one (an unconfirmed sign-up). */
export async function latestPendingPasswordHash(db: Db, userId: string, now = new Date()) {
  const row = await db
    .select({ passwordHash: emailTokens.passwordHash })
    .from(emailTokens)
    .where(and(eq(emailTokens.userId, userId), live("verify", now), isNotNull(emailTokens.passwordHash)))
    .orderBy(desc(emailTokens.createdAt))
    .get();
  return row?.passwordHash ?? null;
}
