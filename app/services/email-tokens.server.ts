import type { Db } from "~/db/client.server";
import {
  consumeEmailTokenRow,
  findLiveEmailToken,
  insertEmailToken,
  retireEmailTokens,
  type EmailTokenPurpose,
  type EmailTokenRow,
} from "~/db/email-tokens.server";
import { randomToken, sha256Hex } from "~/utils/crypto";

export type { EmailTokenPurpose, EmailTokenRow };

export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

/**
 * A new single-use link token; only its hash is stored. A reset link replaces older ones. Verification links do
 * not: each carries the password (and browser) of the sign-up that asked for it, so a stranger's later sign-up
 * with the same address cannot void the owner's link, and confirming retires them all.
 */
export async function issueEmailToken(
  db: Db,
  userId: string,
  purpose: EmailTokenPurpose,
  pending: { passwordHash?: string | null; browserHash?: string | null } = {},
): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  const insert = insertEmailToken(db, {
    id: crypto.randomUUID(),
    userId,
    purpose,
    tokenHash: await sha256Hex(token),
    passwordHash: pending.passwordHash ?? null,
    browserHash: pending.browserHash ?? null,
    expiresAt: new Date(now + EMAIL_TOKEN_TTL_MS[purpose]),
  });
  if (purpose === "reset") await db.batch([retireEmailTokens(db, userId, purpose, new Date(now)), insert]);
  else await insert;
  return token;
}

/** The token's row when it is valid, unused and unexpired (without using it up). */
export async function findEmailToken(db: Db, token: string, purpose: EmailTokenPurpose) {
  return findLiveEmailToken(db, await sha256Hex(token), purpose);
}

/** The token's user id when it is valid, unused and unexpired (without using it up). */
export async function peekEmailToken(db: Db, token: string, purpose: EmailTokenPurpose): Promise<string | null> {
  return (await findEmailToken(db, token, purpose))?.userId ?? null;
}

/** Uses the token up, atomically: of two concurrent uses only one gets the row. */
export async function consumeEmailToken(db: Db, token: string, purpose: EmailTokenPurpose) {
  return (await consumeEmailTokenRow(db, await sha256Hex(token), purpose)) ?? null;
}
