import type { Db } from "~/db/client.server";
import { listUserSessions } from "~/db/user-access.server";
import { describeUserAgent } from "~/domain/user-agent";

export interface SessionSummary {
  id: string;
  device: string;
  ip: string | null;
  signedInAt: string;
  lastActiveAt: string | null;
  current: boolean;
}

/** "Where you're signed in": the user's live sessions, this browser first. */
export async function signedInSessions(db: Db, user: { id: string; sessionId: string }): Promise<SessionSummary[]> {
  const rows = await listUserSessions(db, user.id);
  return rows
    .map((row) => ({
      id: row.id,
      device: describeUserAgent(row.userAgent),
      ip: row.ip,
      signedInAt: row.createdAt.toISOString(),
      lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
      current: row.id === user.sessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}
