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
