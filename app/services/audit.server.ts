import type { Db } from "~/db/client.server";
import { insertAuditRow } from "~/db/audit.server";

export type AuditAction =
  | "auth.signup"
  | "auth.signin"
  | "auth.signin_failed"
  | "auth.signout"
  | "auth.google_signin"
  | "auth.email_verified"
  | "auth.password_changed"
  | "auth.password_reset_requested"
  | "auth.password_reset"
  | "auth.banned_signin_refused"
  | "admin.access_denied"
  | "admin.user_banned"
  | "admin.user_unbanned"
  | "admin.role_changed"
  | "admin.sessions_revoked"
  | "auth.signout_everywhere"
  | "auth.session_revoked"
  | "extension.token_issued"
  | "admin.user_created"
  | "admin.user_updated"
  | "admin.credits_adjusted"
  | "admin.clip_created"
  | "admin.clip_deleted"
  | "admin.clip_refunded"
  | "admin.settings_updated"
  | "admin.payment_refunded"
  | "admin.account_deleted"
  | "account.deleted"
  | "account.data_exported"
  | "admin.contact_replied"
  | "admin.contact_closed"
  | "admin.contact_reopened"
  | "team.invited"
  | "team.invitation_resent"
  | "team.invitation_revoked"
  | "team.joined"
  | "team.member_removed"
  | "team.left"
  | "team.dissolved"
  | "team.suspended";

export async function audit(
  db: Db,
  entry: { action: AuditAction; actorId?: string | null; subjectId?: string | null; ip?: string; details?: object },
): Promise<void> {
  await insertAuditRow(db, {
    action: entry.action,
    actorId: entry.actorId ?? null,
    subjectId: entry.subjectId ?? null,
    ip: entry.ip ?? null,
    details: entry.details ? JSON.stringify(entry.details) : null,
  });
}
