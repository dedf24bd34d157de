import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { creditLedger, users } from "~/db/schema";
import { NEW_USER_CREDITS } from "~/domain/credits";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "./password.server";
import { revokeUserAccess } from "~/db/user-access.server";
import type { User } from "./auth.server";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
}

/**
 * A new account: Free plan, role user, and the 100 welcome credits as its first ledger row, in one batch, so
 * the balance equals the ledger from the first moment. The unique e-mail index refuses a second account.
 */
export async function createUser(
  db: Db,
  input: { email: string; fullName?: string; passwordHash?: string | null; googleSub?: string; verified: boolean },
): Promise<User> {
  const id = crypto.randomUUID();
  const now = new Date();
  const [inserted] = await db.batch([
    db
      .insert(users)
      .values({
        id,
        email: normalizeEmail(input.email),
        fullName: input.fullName?.trim() || "New User",
        passwordHash: input.passwordHash ?? null,
        googleSub: input.googleSub ?? null,
        emailVerifiedAt: input.verified ? now : null,
        credits: NEW_USER_CREDITS,
        updatedAt: now,
      })
      .returning(),
    db.insert(creditLedger).values({
      id: crypto.randomUUID(),
      userId: id,
      delta: NEW_USER_CREDITS,
      balanceAfter: NEW_USER_CREDITS,
      kind: "signup",
      description: "Welcome credits",
      idempotencyKey: "signup",
      requestHash: "signup",
    }),
  ]);
  const user = inserted[0];
  if (!user) throw new Error("user insert returned nothing");
  return user;
}

export function isUniqueViolation(error: unknown): boolean {
  const text = String(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : error);
  return /UNIQUE constraint failed/i.test(text);
}

export type PasswordCheck =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "banned" | "unverified"; user: User };

/**
 * Checks e-mail and password. Unknown e-mails are verified against a dummy hash so both paths cost the same;
 * banned and unverified states are revealed only to someone who knows the password.
 */
export async function checkPassword(db: Db, email: string, password: string): Promise<PasswordCheck> {
  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !user.passwordHash || !valid) return { ok: false, reason: "invalid" };
  if (user.status === "Banned") return { ok: false, reason: "banned", user };
  if (!user.emailVerifiedAt) return { ok: false, reason: "unverified", user };
  return { ok: true, user };
}

export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  const now = new Date();
  await db
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
}

/** Sets a new password and ends every other session and extension token of the user. */
export async function setPassword(db: Db, userId: string, password: string, keepSessionId?: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(users.id, userId));
  await revokeUserAccess(db, userId, keepSessionId);
}
