import { getDb } from "~/db/client.server";
import { deleteSession, revokeUserAccess } from "~/db/user-access.server";
import type { AppEnv } from "~/load-context";
import { closeRevokedSockets } from "./realtime-control.server";

/**
 * The only ways a session or extension token ends before its time. Each revokes in D1 and then closes the sockets
 * opened with exactly what it revoked (and makes the ledgers forget their token checks), so no path can end a
 * session and leave its live socket receiving balances and clip names.
 */

/** Ends one session and the tokens it issued. `userId` scopes it (nobody ends another's session). */
export async function endSession(env: AppEnv, sessionId: string, userId?: string, reason = "signed out") {
  const ended = await deleteSession(getDb(env.DB), sessionId, userId);
  await closeRevokedSockets(env, ended.revoked, reason);
  return { ended: ended.ended };
}

/** Ends every session and token of the user but `keepSessionId`'s (whose sockets stay open). */
export async function revokeAccess(env: AppEnv, userId: string, keepSessionId: string | undefined, reason: string) {
  const revoked = await revokeUserAccess(getDb(env.DB), userId, keepSessionId);
  await closeRevokedSockets(env, [revoked], reason);
  return revoked;
}
