import type { Db } from "~/db/client.server";
import { findUserById, writeRole, type UserRole } from "~/db/user-access.server";
import type { AppEnv } from "~/load-context";
import { publishAdminEvent } from "./admin-events.server";
import { audit } from "./audit.server";
import { ledger } from "./ledger.server";
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

export type ModerationResult = { ok: true; changed: boolean } | { ok: false; status: number; message: string };

const notFound = { ok: false, status: 404, message: "User not found." } as const;

/**
 * Ban: the user's ledger records it (so its very next decision refuses), closes the user's sockets and forgets its
 * token checks; every session and extension token ends, and admin sockets close.
 */
export async function banUser({ env, db, actorId, userId, ip }: ModerationInput): Promise<ModerationResult> {
  if (actorId === userId) return { ok: false, status: 400, message: "You cannot ban yourself." };
  if (!(await findUserById(db, userId))) return notFound;
  const banned = await ledger(env, userId).setBanned({ banned: true });
  if (!banned.ok) return { ok: false, status: banned.status, message: banned.message };
  // Revoke even when already banned: harmless, and it closes any gap a racing sign-in might have left.
  await revokeAccess(env, userId, undefined, "account banned");
  await Promise.all([closeUserSockets(env, userId, "account banned"), closeAdminSockets(env, userId)]);
  if (banned.value.changed) await audit(db, { action: "admin.user_banned", actorId, subjectId: userId, ip });
  return { ok: true, changed: banned.value.changed };
}

/** Lifts a ban through the user's ledger, so their next request is decided unbanned. Sessions stay ended. */
export async function unbanUser({ env, db, actorId, userId, ip }: ModerationInput): Promise<ModerationResult> {
  if (!(await findUserById(db, userId))) return notFound;
  const lifted = await ledger(env, userId).setBanned({ banned: false });
  if (!lifted.ok) return { ok: false, status: lifted.status, message: lifted.message };
  if (lifted.value.changed) await audit(db, { action: "admin.user_unbanned", actorId, subjectId: userId, ip });
  return { ok: true, changed: lifted.value.changed };
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
  await publishAdminEvent(env, "users");
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
