import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { emailTokens } from "~/db/schema";
import { randomToken, sha256Hex } from "~/utils/crypto";

export type EmailTokenPurpose = "verify" | "reset";

export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

/** A new single-use link token; only its hash is stored. Older unused tokens of the same purpose stop working. */
export async function issueEmailToken(db: Db, userId: string, purpose: EmailTokenPurpose): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  await db.batch([
    db
      .update(emailTokens)
      .set({ usedAt: new Date(now) })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt))),
    db.insert(emailTokens).values({
      id: crypto.randomUUID(),
      userId,
      purpose,
      tokenHash: await sha256Hex(token),
      expiresAt: new Date(now + EMAIL_TOKEN_TTL_MS[purpose]),
    }),
  ]);
  return token;
}

/** The token's user id when it is valid, unused and unexpired (without using it up). */
export async function peekEmailToken(db: Db, token: string, purpose: EmailTokenPurpose): Promise<string | null> {
  const row = await db
    .select({ userId: emailTokens.userId })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, await sha256Hex(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
      ),
    )
    .get();
  return row?.userId ?? null;
}

/** Uses the token up, atomically: of two concurrent uses only one gets the user id. */
export async function consumeEmailToken(db: Db, token: string, purpose: EmailTokenPurpose): Promise<string | null> {
  const row = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailTokens.tokenHash, await sha256Hex(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: emailTokens.userId })
    .get();
  return row?.userId ?? null;
}
