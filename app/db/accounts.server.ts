/** Account rows: finding, creating and confirming accounts, and their sign-in secrets (never credits or plan). */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "./client.server";
import { retireEmailTokens } from "./email-tokens.server";
import { users } from "./schema";

export type UserRow = typeof users.$inferSelect;

export async function findUserRowByEmail(db: Db, normalizedEmail: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.email, normalizedEmail)).get();
}

export async function findUserRowByGoogleSub(db: Db, sub: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.googleSub, sub)).get();
}

/** Inserts a Free account with 0 credits; the unique e-mail index refuses a second one. */
export async function insertUserRow(
  db: Db,
  row: {
    email: string;
    fullName: string;
    passwordHash: string | null;
    googleSub: string | null;
    emailVerifiedAt: Date | null;
  },
): Promise<UserRow> {
  const user = await db
    .insert(users)
    .values({ id: crypto.randomUUID(), ...row, updatedAt: new Date() })
    .returning()
    .get();
  if (!user) throw new Error("user insert returned nothing");
  return user;
}

/** Confirms an unconfirmed account with this password and retires its confirmation links; true if it confirmed. */
export async function confirmUserRow(db: Db, userId: string, passwordHash: string | null): Promise<boolean> {
  const now = new Date();
  const [confirmed] = await db.batch([
    db
      .update(users)
      .set({ emailVerifiedAt: now, passwordHash, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
      .returning({ id: users.id }),
    retireEmailTokens(db, userId, "verify", now),
  ]);
  return confirmed.length > 0;
}

/** Marks the address verified (if it was not) and retires pending confirmation links. */
export async function markUserRowVerified(db: Db, userId: string): Promise<void> {
  const now = new Date();
  await db.batch([
    db
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt))),
    retireEmailTokens(db, userId, "verify", now),
  ]);
}

export async function savePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

/**
 * Links a Google identity to an account that has none, confirming it; an unconfirmed account loses its password
 * (whoever set it had not proved the address). Conditional: a concurrent link of another identity wins and this
 * returns undefined.
 */
export async function linkGoogleIdentity(db: Db, account: UserRow, sub: string): Promise<UserRow | undefined> {
  const now = new Date();
  const [updated] = await db.batch([
    db
      .update(users)
      .set({
        googleSub: sub,
        emailVerifiedAt: account.emailVerifiedAt ?? now,
        passwordHash: account.emailVerifiedAt ? account.passwordHash : null,
        updatedAt: now,
      })
      .where(and(eq(users.id, account.id), isNull(users.googleSub)))
      .returning(),
    retireEmailTokens(db, account.id, "verify", now),
  ]);
  return updated[0];
}
