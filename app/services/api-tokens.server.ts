import type { Credits } from "~/domain/api";
import type { Standing } from "~/domain/ledger";
import { getDb, type Db } from "~/db/client.server";
import { insertApiToken, replaceSessionToken, tokenOwner } from "~/db/api-tokens.server";
import type { AppEnv } from "~/load-context";
import { randomToken, sha256Hex } from "~/utils/crypto";
import { ledger } from "./ledger.server";
import { closeRevokedSockets } from "./realtime-control.server";

const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The site's hand-off: a new token for this browser session that replaces the session's earlier one (revoked, its
 * sockets closed), so a browser session has one live token, not one per visit or tab.
 */
export async function handOffApiToken(env: AppEnv, userId: string, sessionId: string): Promise<string> {
  const token = `cc_${randomToken(32)}`;
  const tokenHash = await sha256Hex(token);
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS);
  const revoked = await replaceSessionToken(getDb(env.DB), { userId, sessionId, tokenHash, expiresAt });
  if (revoked.length > 0) {
    await closeRevokedSockets(env, [{ userId, sessionIds: [], tokenHashes: revoked }], "token replaced");
  }
  return token;
}

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
/**
 * Hashes no token has, until when: a client repeating a bad token costs no D1 read for a minute. (A hash could only
 * turn known by someone minting that very 256-bit token: the miss never hides a real token.)
 */
const misses = new Map<string, number>();
const MISS_TTL_MS = 60_000;

async function ownerOf(env: AppEnv, tokenHash: string, now = Date.now()): Promise<string | null> {
  const cached = owners.get(tokenHash);
  if (cached) return cached;
  if ((misses.get(tokenHash) ?? 0) > now) return null;
  const userId = await tokenOwner(getDb(env.DB), tokenHash);
  if (userId) {
    if (owners.size >= MAX_OWNERS) owners.delete(owners.keys().next().value as string);
    owners.set(tokenHash, userId);
  } else {
    if (misses.size >= MAX_OWNERS) misses.clear();
    misses.set(tokenHash, now + MISS_TTL_MS);
  }
  return userId;
}

/** `standing`: who the caller is now, as their ledger answered it with the token check (plan, credits, team). */
export type ApiCaller = { id: string; credits: Credits; tokenHash: string; standing: Standing };
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
  return { id: claim.id, credits: checked.credits, tokenHash: claim.tokenHash, standing: checked };
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
