import type { RevokedAccess } from "~/db/user-access.server";
import type { AppEnv } from "~/load-context";
import { ledger } from "./ledger.server";

/** The one AdminFeed object every admin page connects to (workers/admin-feed.ts re-exports this name). */
export const ADMIN_FEED_NAME = "admin-feed-0";

/**
 * Closes live sockets when access ends. Best effort: a socket that survives a failed close still cannot act,
 * since every request re-checks the session or token; closing only makes the end visible at once.
 */
export async function closeUserSockets(env: AppEnv, userId: string, reason: string): Promise<void> {
  const closed = await ledger(env, userId).disconnect(reason);
  if (typeof closed !== "number")
    console.warn(JSON.stringify({ level: "warn", msg: "closing user sockets failed", userId }));
}

export async function closeAdminSockets(env: AppEnv, userId: string): Promise<void> {
  try {
    await env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME)).disconnectUser(userId);
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "closing admin sockets failed", userId, error: String(error) }));
  }
}

/**
 * Sessions or tokens ended (sign-out, a session ended on /account, a password change or reset, pruning): the sockets
 * opened with them close (4001) — pages and extension in each user's ledger, admin pages in the admin feed — and the
 * ledgers forget their token checks. Called by every function that revokes (app/services/access-revocation.server.ts).
 */
export async function closeRevokedSockets(env: AppEnv, revoked: RevokedAccess[], reason: string): Promise<void> {
  const sessionIds = revoked.flatMap((r) => r.sessionIds);
  await Promise.all([
    ...revoked.map(async ({ userId, sessionIds, tokenHashes }) => {
      const closed = await ledger(env, userId).closeRevoked({ sessionIds, tokenHashes, reason });
      if (typeof closed !== "number")
        console.warn(JSON.stringify({ level: "warn", msg: "closing revoked sockets failed", userId }));
    }),
    sessionIds.length > 0 &&
      env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME))
        .closeSessions(sessionIds)
        .catch((error: unknown) =>
          console.warn(JSON.stringify({ level: "warn", msg: "closing admin sessions failed", error: String(error) })),
        ),
  ]);
}
