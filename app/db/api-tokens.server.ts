import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "./client.server";
import { apiTokens, users } from "./schema";

/** Extension tokens. Only their SHA-256 is stored; the token itself is shown once, to the extension. */

export function insertApiToken(
  db: Db,
  token: { userId: string; sessionId: string; tokenHash: string; expiresAt: Date },
) {
  return db.insert(apiTokens).values({ id: crypto.randomUUID(), ...token });
}

/**
 * The hand-off's token for a browser session: the session's earlier tokens are revoked in the same batch, so a
 * session holds one live token however often (or from however many tabs) the site hands one over. Returns the
 * revoked hashes (their sockets close).
 */
export async function replaceSessionToken(
  db: Db,
  token: { userId: string; sessionId: string; tokenHash: string; expiresAt: Date },
  now = new Date(),
) {
  const [revoked] = await db.batch([
    db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(
        and(eq(apiTokens.sessionId, token.sessionId), eq(apiTokens.userId, token.userId), isNull(apiTokens.revokedAt)),
      )
      .returning({ tokenHash: apiTokens.tokenHash }),
    insertApiToken(db, token),
  ]);
  return revoked.map((r) => r.tokenHash);
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
