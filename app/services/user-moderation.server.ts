import type { Db } from "~/db/client.server";
import { clearBanned, findUserById, setBanned, writeRole, type UserRole } from "~/db/user-access.server";
import type { AppEnv } from "~/load-context";
import { audit } from "./audit.server";
import { revokeAccess } from "./access-revocation.server";
import { closeAdminSockets, closeUserSockets } from "./realtime-control.server";

/**
 * Admin actions on an account, one shared path for the admin Users screen and tests. Each writes a conditional
 * change (so concurrent writers cannot undo it), ends access where it should (sessions, extension tokens, open
 * sockets) and leaves an audit row naming the admin.
 */
export interface ModerationInput {
  env: AppEnv;
  db: Db;
  /** The admin acting (or the user themself for signOutEverywhere). */
  actorId: string;
  userId: string;
  ip?: string;
}

export type ModerationResult = { ok: true; changed: boolean } | { ok: false; status: 400 | 404; message: string };

const notFound = { ok: false, status: 404, message: "User not found." } as const;

/**
 * Ban: status Banned, every session and extension token ends, open sockets (pages, extension, admin) close and
 * the user's ledger forgets its token checks (closeUserSockets → disconnect).
 */
export async function banUser({ env, db, actorId, userId, ip }: ModerationInput): Promise<ModerationResult> {
  if (actorId === userId) return { ok: false, status: 400, message: "You cannot ban yourself." };
  if (!(await findUserById(db, userId))) return notFound;
  const banned = await setBanned(db, userId);
  // Revoke even when already banned: harmless, and it closes any gap a racing sign-in might have left.
  await revokeAccess(env, userId, undefined, "account banned");
  await Promise.all([closeUserSockets(env, userId, "account banned"), closeAdminSockets(env, userId)]);
  if (banned) await audit(db, { action: "admin.user_banned", actorId, subjectId: userId, ip });
  return { ok: true, changed: Boolean(banned) };
}

/** Lifts a ban. Sessions stay ended: the user signs in again. */
export async function unbanUser({ db, actorId, userId, ip }: ModerationInput): Promise<ModerationResult> {
  if (!(await findUserById(db, userId))) return notFound;
  const lifted = await clearBanned(db, userId);
  if (lifted) await audit(db, { action: "admin.user_unbanned", actorId, subjectId: userId, ip });
  return { ok: true, changed: Boolean(lifted) };
}

/** Role change. A demoted admin's admin-feed sockets close at once; every /admin request re-checks the role anyway. */
export async function setUserRole(input: ModerationInput & { role: UserRole }): Promise<ModerationResult> {
  const { env, db, actorId, userId, ip, role } = input;
  if (actorId === userId && role !== "admin") {
    return { ok: false, status: 400, message: "You cannot remove your own admin role." };
  }
  if (!(await findUserById(db, userId))) return notFound;
  const changed = await writeRole(db, userId, role);
  if (!changed) return { ok: true, changed: false };
  if (changed.previous === "admin") await closeAdminSockets(env, userId);
  await audit(db, {
    action: "admin.role_changed",
    actorId,
    subjectId: userId,
    ip,
    details: { from: changed.previous, to: role },
  });
  return { ok: true, changed: true };
}

/**
 * Ends every session and extension token of the user and closes their sockets. `keepSessionId` spares the browser
 * that asked ("sign out everywhere else" on /account); its sockets reconnect at once with the still-valid session.
 */
export async function signOutEverywhere(
  input: ModerationInput & { keepSessionId?: string },
): Promise<ModerationResult> {
  const { env, db, actorId, userId, ip, keepSessionId } = input;
  if (!(await findUserById(db, userId))) return notFound;
  // Closes the sockets of what ended; with `keepSessionId`, this browser's stay open.
  await revokeAccess(env, userId, keepSessionId, "signed out everywhere");
  if (!keepSessionId) {
    await Promise.all([closeUserSockets(env, userId, "signed out everywhere"), closeAdminSockets(env, userId)]);
  }
  await audit(db, {
    action: actorId === userId ? "auth.signout_everywhere" : "admin.sessions_revoked",
    actorId,
    subjectId: userId,
    ip,
    details: keepSessionId ? { keptCurrentSession: true } : undefined,
  });
  return { ok: true, changed: true };
}
