import { and, desc, eq, gt, isNotNull, isNull, lt, ne, notExists, or, sql } from "drizzle-orm";
import type { Db } from "./client.server";
import { apiTokens, emailTokens, rateLimits, sessions, users } from "./schema";

/**
 * Who may get in: account status and role, server-side sessions and extension tokens. Every status or role write
 * is conditional on the state it changes from, so a concurrent writer (presence, another admin) cannot undo it.
 */

export type UserStatus = (typeof users.$inferSelect)["status"];
export type UserRole = (typeof users.$inferSelect)["role"];

export function findUserById(db: Db, userId: string) {
  return db.select().from(users).where(eq(users.id, userId)).get();
}

/**
 * True in SQL while another active (unbanned, admin) account than `userId` exists. Put in the same statement as a
 * demotion or a ban, it keeps one active admin even when two admins demote each other at the same moment: D1 runs
 * the statements one after the other, and the second one sees the first.
 */
const anotherActiveAdmin = (userId: string) =>
  sql`exists (select 1 from users other where other.role = 'admin' and other.status != 'Banned' and other.id != ${userId})`;

/** Presence never overwrites a ban: the write is conditional in the same statement, not after a read. */
export function writePresence(db: Db, userId: string, online: boolean, now = new Date()) {
  return db
    .update(users)
    .set({ status: online ? "online" : "offline", lastSeen: now })
    .where(and(eq(users.id, userId), ne(users.status, "Banned")))
    .returning({ id: users.id })
    .get();
}

/** Changes the role only if it differs; returns the previous role when it changed. */
export async function writeRole(db: Db, userId: string, role: UserRole, now = new Date()) {
  const before = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).get();
  if (!before || before.role === role) return undefined;
  const changed = await db
    .update(users)
    .set({ role, updatedAt: now })
    .where(
      and(
        eq(users.id, userId),
        eq(users.role, before.role),
        before.role === "admin" ? anotherActiveAdmin(userId) : undefined,
      ),
    )
    .returning({ id: users.id })
    .get();
  return changed ? { previous: before.role } : undefined;
}

// ── Sessions ─────────────────────────────────────────────────────────────

export function insertSession(db: Db, row: typeof sessions.$inferInsert) {
  return db.insert(sessions).values(row);
}

/**
 * A live session and its user: not expired, and used within the idle limit. Every signed-in page load runs it, so
 * it is prepared once per database handle: building drizzle's SQL for it was ~7% of a dashboard render's CPU. Plan,
 * credits and team come from the user's ledger instead (`authenticate`).
 */
export function findLiveSession(db: Db, sessionId: string, now: number, idleMs: number) {
  let query = liveSessionQueries.get(db);
  if (!query) {
    query = prepareLiveSession(db);
    liveSessionQueries.set(db, query);
  }
  return query.get({ sessionId, now, idleCutoff: now - idleMs });
}

const liveSessionQueries = new WeakMap<Db, ReturnType<typeof prepareLiveSession>>();

// Placeholders bind raw values: times are epoch milliseconds, as the columns store them.
function prepareLiveSession(db: Db) {
  const now = sql.placeholder("now");
  const idleCutoff = sql.placeholder("idleCutoff");
  return db
    .select({
      user: users,
      flag: sessions.showMaintenanceNotification,
      lastActiveAt: sessions.lastActiveAt,
      createdAt: sessions.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder("sessionId")),
        gt(sessions.expiresAt, now),
        or(
          gt(sessions.lastActiveAt, idleCutoff),
          and(isNull(sessions.lastActiveAt), gt(sessions.createdAt, idleCutoff)),
        ),
      ),
    )
    .prepare();
}

/** Records use of a session, at most once per `everyMs` (so reading pages adds no write per request). */
export function touchSession(db: Db, sessionId: string, now: number, everyMs: number) {
  return db
    .update(sessions)
    .set({ lastActiveAt: new Date(now) })
    .where(
      and(
        eq(sessions.id, sessionId),
        or(isNull(sessions.lastActiveAt), lt(sessions.lastActiveAt, new Date(now - everyMs))),
      ),
    );
}

export function listUserSessions(db: Db, userId: string, now = new Date()) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastActiveAt: sessions.lastActiveAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastActiveAt))
    .limit(50);
}

/**
 * Ends one session and the extension tokens it issued. Scoped to the user, so nobody ends another's session.
 * Returns what ended, by user: the session and token hashes whose sockets must close and whose ledgers forget them.
 */
export async function deleteSession(db: Db, sessionId: string, userId?: string, now = new Date()) {
  const owned = userId ? and(eq(sessions.id, sessionId), eq(sessions.userId, userId)) : eq(sessions.id, sessionId);
  const [revoked, deleted] = await db.batch([
    db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(apiTokens.sessionId, sessionId),
          isNull(apiTokens.revokedAt),
          ...(userId ? [eq(apiTokens.userId, userId)] : []),
        ),
      )
      .returning({ userId: apiTokens.userId, tokenHash: apiTokens.tokenHash }),
    db.delete(sessions).where(owned).returning({ id: sessions.id, userId: sessions.userId }),
  ]);
  return {
    ended: deleted.length > 0,
    tokenOwners: revoked.map((r) => r.userId),
    revoked: groupRevoked(deleted, revoked),
  };
}

/** What one revocation ended, per user. */
export interface RevokedAccess {
  userId: string;
  sessionIds: string[];
  tokenHashes: string[];
}

function groupRevoked(
  endedSessions: { id: string; userId: string }[],
  endedTokens: { userId: string; tokenHash: string }[],
): RevokedAccess[] {
  const byUser = new Map<string, RevokedAccess>();
  const entry = (userId: string) => {
    let found = byUser.get(userId);
    if (!found) byUser.set(userId, (found = { userId, sessionIds: [], tokenHashes: [] }));
    return found;
  };
  for (const s of endedSessions) entry(s.userId).sessionIds.push(s.id);
  for (const t of endedTokens) entry(t.userId).tokenHashes.push(t.tokenHash);
  return [...byUser.values()];
}

/**
 * Ends every session of a user and revokes their extension tokens, in one batch. `keepSessionId` spares the browser
 * that asked (and the tokens it issued), e.g. "sign out everywhere else" or a password change.
 */
export async function revokeUserAccess(db: Db, userId: string, keepSessionId?: string, now = new Date()) {
  const otherTokens = keepSessionId
    ? or(isNull(apiTokens.sessionId), ne(apiTokens.sessionId, keepSessionId))
    : undefined;
  const [tokens, ended] = await db.batch([
    db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), otherTokens))
      .returning({ userId: apiTokens.userId, tokenHash: apiTokens.tokenHash }),
    db
      .delete(sessions)
      .where(
        keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId),
      )
      .returning({ id: sessions.id, userId: sessions.userId }),
  ]);
  return groupRevoked(ended, tokens)[0] ?? { userId, sessionIds: [], tokenHashes: [] };
}

/** When this session's admin last confirmed their password (null: never). */
export async function readStepUp(db: Db, sessionId: string): Promise<number | null> {
  const row = await db.select({ at: sessions.stepUpAt }).from(sessions).where(eq(sessions.id, sessionId)).get();
  return row?.at?.getTime() ?? null;
}

export function markStepUp(db: Db, sessionId: string, now = new Date()) {
  return db.update(sessions).set({ stepUpAt: now }).where(eq(sessions.id, sessionId));
}

export function setMaintenanceFlag(db: Db, sessionId: string, show: boolean) {
  return db.update(sessions).set({ showMaintenanceNotification: show }).where(eq(sessions.id, sessionId));
}

// ── Housekeeping ─────────────────────────────────────────────────────────

/**
 * Deletes what can never be used again: expired or idle sessions, extension tokens expired or revoked for a day,
 * e-mail tokens past expiry or used, and rate-limit rows whose window closed (the longest window is an hour).
 * Tokens end with their session: those whose session is gone are revoked here (their sockets close by `revoked`).
 */
export async function pruneExpired(db: Db, now: number, sessionIdleMs: number) {
  const day = 24 * 60 * 60 * 1000;
  const results = await db.batch([
    db
      .delete(sessions)
      .where(
        or(
          lt(sessions.expiresAt, new Date(now)),
          lt(sessions.lastActiveAt, new Date(now - sessionIdleMs)),
          and(isNull(sessions.lastActiveAt), lt(sessions.createdAt, new Date(now - sessionIdleMs))),
        ),
      )
      .returning({ id: sessions.id, userId: sessions.userId }),
    db
      .update(apiTokens)
      .set({ revokedAt: new Date(now) })
      .where(
        and(
          isNull(apiTokens.revokedAt),
          isNotNull(apiTokens.sessionId),
          notExists(db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, apiTokens.sessionId))),
        ),
      )
      .returning({ userId: apiTokens.userId, tokenHash: apiTokens.tokenHash }),
    db
      .delete(apiTokens)
      .where(or(lt(apiTokens.expiresAt, new Date(now)), lt(apiTokens.revokedAt, new Date(now - day))))
      .returning({ id: apiTokens.id }),
    db
      .delete(emailTokens)
      .where(or(lt(emailTokens.expiresAt, new Date(now)), lt(emailTokens.usedAt, new Date(now - day))))
      .returning({ id: emailTokens.id }),
    db
      .delete(rateLimits)
      .where(lt(rateLimits.windowStart, now - 2 * 60 * 60 * 1000))
      .returning({ key: rateLimits.key }),
  ]);
  return {
    counts: {
      sessions: results[0].length,
      tokensRevoked: results[1].length,
      apiTokens: results[2].length,
      emailTokens: results[3].length,
      rateLimits: results[4].length,
    },
    revoked: groupRevoked(results[0], results[1]),
  };
}
