import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, gt } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { sessions, users } from "~/db/schema";
import { sha256Hex } from "~/utils/crypto";
import { readSessionToken } from "./session-cookie.server";

export type SessionUser = typeof users.$inferSelect & { sessionId: string };

/** The signed-in user for this request, or null (no cookie, unknown or expired session, banned user). */
export async function getOptionalUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const token = readSessionToken(request);
  if (!token) return null;
  const db = getDb(context.cloudflare.env.DB);
  const sessionId = await sha256Hex(token);
  const row = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, new Date())))
    .get();
  if (!row || row.user.status === "Banned") return null;
  return { ...row.user, sessionId };
}
