/**
 * Who may act on whom in the admin screens. A plain admin manages users but cannot ban, demote, sign out or delete
 * another admin: one stolen admin session must not be able to lock every other admin out. Owners (listed at deploy
 * time, ADMIN_OWNERS in wrangler.toml) may. Nobody acts on themself here (the screens refuse that earlier).
 */
export type AdminAction = "ban" | "demote" | "signout" | "delete";

export const ADMIN_RIGHTS_MESSAGES = {
  notOnAdmins: "Only an owner can ban, demote, sign out or delete another admin.",
  lastAdmin: "At least one active admin must remain.",
  stepUpNeeded: "Enter your password to confirm this change.",
  stepUpWrong: "That password is not right. The change was not made.",
} as const;

/** The e-mails of ADMIN_OWNERS ("a@x.com, b@y.com"), lower-cased. */
export function parseOwners(list: string | undefined): Set<string> {
  return new Set(
    (list ?? "")
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
}

export function adminActionRefusal(
  actor: { id: string; owner: boolean },
  target: { id: string; role: string },
  // Every AdminAction is one a plain admin may not take against another admin.
  _action: AdminAction,
): string | null {
  if (actor.id === target.id || target.role !== "admin" || actor.owner) return null;
  return ADMIN_RIGHTS_MESSAGES.notOnAdmins;
}

/** A step-up (the admin's password again) covers this many ms of sensitive changes in the same session. */
export const STEP_UP_MS = 10 * 60 * 1000;

/**
 * Role, plan, credit and extension-id changes need a fresh step-up; names and bans do not. Plan and credit changes
 * are decided by the user's ledger on what it would change (`adminEdit`), the others before the write.
 */
export function needsStepUp(change: {
  roleChanged?: boolean;
  planChanged?: boolean;
  creditsChanged?: boolean;
  extensionId?: boolean;
}) {
  return Boolean(change.roleChanged || change.planChanged || change.creditsChanged || change.extensionId);
}
