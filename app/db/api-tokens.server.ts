import { eq } from "drizzle-orm";
import type { Db } from "./client.server";
import { apiTokens, users } from "./schema";

/** Extension tokens. Only their SHA-256 is stored; the token itself is shown once, to the extension. */

export function insertApiToken(
  db: Db,
  token: { userId: string; sessionId: string; tokenHash: string; expiresAt: Date },
) {
  return db.insert(apiTokens).values({ id: crypto.randomUUID(), ...token });
}

/** Whose token this is, valid or not. A hash never changes owner, so the answer may be cached for good. */
export async function tokenOwner(db: Db, tokenHash: string): Promise<string | null> {
  const row = await db
    .select({ userId: apiTokens.userId })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, tokenHash))
    .get();
  return row?.userId ?? null;
}

/** What decides whether a token is accepted now: its expiry and revocation, and its owner's ban. */
export interface TokenStanding {
  userId: string;
  expiresAt: number;
  revoked: boolean;
  banned: boolean;
}

export async function tokenStanding(db: Db, tokenHash: string): Promise<TokenStanding | null> {
  const row = await db
    .select({
      userId: apiTokens.userId,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      status: users.status,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .get();
  if (!row) return null;
  return {
    userId: row.userId,
    expiresAt: row.expiresAt.getTime(),
    revoked: row.revokedAt !== null,
    banned: row.status === "Banned",
  };
}

export const tokenAccepted = (standing: TokenStanding | null, userId: string, now: number) =>
  standing !== null && standing.userId === userId && !standing.revoked && !standing.banned && standing.expiresAt > now;
