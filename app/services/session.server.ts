import { redirect } from "@remix-run/cloudflare";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { apiTokens, sessions } from "~/db/schema";
import { randomToken, sha256Hex } from "~/utils/crypto";
import { clearSessionCookie, readSessionToken, SESSION_TTL_MS, sessionCookie } from "./session-cookie.server";
import { clientIp } from "./rate-limit.server";

/**
 * Starts a new session for the user and redirects. Any session this browser already had is ended first, so the id
 * changes at every sign-in (no session fixation). The maintenance notice flag is set, as after every sign-in.
 */
export async function createUserSession(
  db: Db,
  request: Request,
  userId: string,
  redirectTo: string,
): Promise<Response> {
  await endCurrentSession(db, request);
  const token = randomToken(32); // 256 bits
  await db.insert(sessions).values({
    id: await sha256Hex(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    lastActiveAt: new Date(),
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    ip: clientIp(request),
    showMaintenanceNotification: true,
  });
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": sessionCookie(request, token) } });
}

/** Ends this browser's session (and the extension tokens it issued). Returns the Set-Cookie that clears it. */
export async function endCurrentSession(db: Db, request: Request): Promise<string> {
  const token = readSessionToken(request);
  if (token) {
    const id = await sha256Hex(token);
    await db.batch([
      db
        .update(apiTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiTokens.sessionId, id), isNull(apiTokens.revokedAt))),
      db.delete(sessions).where(eq(sessions.id, id)),
    ]);
  }
  return clearSessionCookie(request);
}

/** Ends every session of a user, optionally keeping one (the browser that changed the password). */
export async function revokeUserSessions(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId),
    );
}

export async function setMaintenanceFlag(db: Db, sessionId: string, show: boolean): Promise<void> {
  await db.update(sessions).set({ showMaintenanceNotification: show }).where(eq(sessions.id, sessionId));
}

/** Only same-site relative paths: never redirect to another origin ("//evil.com" included). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
