import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { apiTokens, users } from "~/db/schema";
import { randomToken, sha256Hex } from "~/utils/crypto";
import type { User } from "./auth.server";

const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A new extension token for the user, tied to the browser session that asked for it. Only its hash is kept. */
export async function issueApiToken(db: Db, userId: string, sessionId: string): Promise<string> {
  const token = `cc_${randomToken(32)}`;
  await db.insert(apiTokens).values({
    id: crypto.randomUUID(),
    userId,
    sessionId,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
  });
  return token;
}

/** The user behind a Bearer token: unrevoked, unexpired, not banned. */
export async function userForApiToken(db: Db, token: string): Promise<User | null> {
  const row = await db
    .select({ user: users, tokenId: apiTokens.id })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, await sha256Hex(token)),
        isNull(apiTokens.revokedAt),
        gt(apiTokens.expiresAt, new Date()),
      ),
    )
    .get();
  if (!row || row.user.status === "Banned") return null;
  return row.user;
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}
