import { getDb, type Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { revokeAccess } from "./access-revocation.server";
import {
  confirmUserRow,
  findUserRowByEmail,
  insertUserRow,
  markUserRowVerified,
  savePasswordHash,
} from "~/db/accounts.server";
import { publishAdminEvent } from "./admin-events.server";
import { ledger } from "./ledger.server";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "./password.server";
import { latestPendingPasswordHash } from "~/db/email-tokens.server";
import type { User } from "./auth.server";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return findUserRowByEmail(db, normalizeEmail(email));
}

export type NewAccount = {
  email: string;
  fullName?: string;
  passwordHash?: string | null;
  googleSub?: string;
  verified: boolean;
};

/**
 * A new account: Free plan, role user, 0 credits. The unique e-mail index refuses a second account. Its welcome
 * credits are the ledger's (`openAccount`): nothing but the ledger writes a balance.
 */
export async function createUser(db: Db, input: NewAccount): Promise<User> {
  return insertUserRow(db, {
    email: normalizeEmail(input.email),
    fullName: input.fullName?.trim() || "New User",
    passwordHash: input.passwordHash ?? null,
    googleSub: input.googleSub ?? null,
    emailVerifiedAt: input.verified ? new Date() : null,
  });
}

/**
 * After an account was created: its welcome credits through its ledger (once, key `signup`), and admin pages hear
 * of the sign-up. If the ledger is busy the account starts at 0 and the starter reset (a Free account with 0
 * credits and no clips) gives the 100 on the first dashboard visit: nothing is lost.
 */
export async function welcomeAccount(env: AppEnv, user: User): Promise<User> {
  const welcomed = await ledger(env, user.id).welcome({});
  await publishAdminEvent(env, "users");
  if (!welcomed.ok) {
    console.warn(JSON.stringify({ level: "warn", msg: "welcome credits delayed", userId: user.id }));
    return user;
  }
  return { ...user, credits: welcomed.value.credits.balance };
}

export function isUniqueViolation(error: unknown): boolean {
  const text = String(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : error);
  return /UNIQUE constraint failed/i.test(text);
}

export type PasswordCheck =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "banned"; user: User }
  | { ok: false; reason: "unverified"; user: User; passwordHash: string };

/**
 * Checks e-mail and password. Unknown e-mails are verified against a dummy hash so both paths cost the same;
 * banned and unverified states are revealed only to someone who knows the password. An unconfirmed account has
 * no password of its own yet: the one to check is the one its newest confirmation link carries.
 */
export async function checkPassword(db: Db, email: string, password: string): Promise<PasswordCheck> {
  const user = await findUserByEmail(db, email);
  const stored = user && !user.emailVerifiedAt ? await latestPendingPasswordHash(db, user.id) : user?.passwordHash;
  const valid = await verifyPassword(password, stored ?? DUMMY_PASSWORD_HASH);
  if (!user || !stored || !valid) return { ok: false, reason: "invalid" };
  if (user.status === "Banned") return { ok: false, reason: "banned", user };
  if (!user.emailVerifiedAt) return { ok: false, reason: "unverified", user, passwordHash: stored };
  return { ok: true, user };
}

/**
 * Confirms the address with what the confirmation link carries: the account's password becomes exactly the one
 * chosen at the sign-up that asked for the link (none for an old link), and every other confirmation link dies.
 * Only an unconfirmed account changes; returns whether this call confirmed it.
 */
export async function confirmEmail(db: Db, userId: string, passwordHash: string | null): Promise<boolean> {
  return confirmUserRow(db, userId, passwordHash);
}

/** A password reset proves the address too: confirm it, and retire any pending confirmation link. */
export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  await markUserRowVerified(db, userId);
}

/** Sets a new password and ends every other session and extension token of the user. */
export async function setPassword(env: AppEnv, userId: string, password: string, keepSessionId?: string) {
  await savePasswordHash(getDb(env.DB), userId, await hashPassword(password));
  await revokeAccess(env, userId, keepSessionId, "password changed");
}
