import type { Credits } from "~/domain/api";
import { getDb, type Db } from "~/db/client.server";
import { insertApiToken, tokenOwner } from "~/db/api-tokens.server";
import type { AppEnv } from "~/load-context";
import { randomToken, sha256Hex } from "~/utils/crypto";
import { ledger } from "./ledger.server";

const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A new extension token for the user, tied to the browser session that asked for it. Only its hash is kept. */
export async function issueApiToken(db: Db, userId: string, sessionId: string): Promise<string> {
  const token = `cc_${randomToken(32)}`;
  await insertApiToken(db, {
    userId,
    sessionId,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
  });
  return token;
}

/**
 * Token hash → owner, per isolate. Safe to keep: a hash never changes owner, and whether the token is still
 * accepted is decided by the owner's UserLedger on every request (docs/decisions/010-api-token-checks.md).
 */
const owners = new Map<string, string>();
const MAX_OWNERS = 10_000;

async function ownerOf(env: AppEnv, tokenHash: string): Promise<string | null> {
  const cached = owners.get(tokenHash);
  if (cached) return cached;
  const userId = await tokenOwner(getDb(env.DB), tokenHash);
  if (userId) {
    if (owners.size >= MAX_OWNERS) owners.delete(owners.keys().next().value as string);
    owners.set(tokenHash, userId);
  }
  return userId;
}

export type ApiCaller = { id: string; credits: Credits };
/** Who a Bearer token names, before its owner's ledger said whether it is still accepted. */
export type TokenClaim = { id: string; tokenHash: string };

/** The owner a token names (an isolate cache; no ledger call): the ledger checks the token with the operation. */
export async function tokenClaim(env: AppEnv, token: string): Promise<TokenClaim | null> {
  const tokenHash = await sha256Hex(token);
  const userId = await ownerOf(env, tokenHash);
  return userId ? { id: userId, tokenHash } : null;
}

/**
 * The user behind a Bearer token if it is unrevoked, unexpired and its owner not banned; "busy" when the owner's
 * ledger could not be reached (the caller answers 503 and the client retries).
 */
export async function apiCallerForToken(env: AppEnv, token: string): Promise<ApiCaller | null | "busy"> {
  const claim = await tokenClaim(env, token);
  if (!claim) return null;
  const checked = await ledger(env, claim.id).authenticate(claim.tokenHash);
  if (checked === null) return null;
  if ("ok" in checked) return "busy";
  return { id: claim.id, credits: checked.credits };
}

/**
 * After extension tokens were revoked in D1 (sign-out, password change, ban): the owners' ledgers drop what they
 * remembered, so a revoked token is refused on its next request. Best effort: a ledger that misses this re-reads
 * every token within TOKEN_RECHECK_MS anyway.
 */
export async function forgetApiTokens(env: AppEnv, userIds: Iterable<string>): Promise<void> {
  await Promise.all(
    [...new Set(userIds)].map(async (userId) => {
      const result = await ledger(env, userId).forgetTokens();
      if (result) console.warn(JSON.stringify({ level: "warn", msg: "forget tokens failed", userId }));
    }),
  );
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}
