import { getDb } from "~/db/client.server";
import { markStepUp, readStepUp } from "~/db/user-access.server";
import { ADMIN_RIGHTS_MESSAGES, parseOwners, STEP_UP_MS } from "~/domain/admin-rights";
import type { AppEnv } from "~/load-context";
import type { SessionUser } from "./auth.server";
import { verifyPassword } from "./password.server";
import { beginPasswordAttempt } from "./password-attempts.server";
import { clientIp } from "./rate-limit.server";

export type StepUpResult = { ok: true } | { ok: false; status: 401 | 429; message: string };

/**
 * Sensitive admin changes (role, credits, extension id) need the admin's password again, once per 10 minutes per
 * session: a stolen admin cookie alone cannot grant roles, mint credits or redirect every user's token. The
 * password goes through the same attempt counter as sign-in, so this is no guessing oracle. `always`: the password
 * is asked every time, whatever the session proved before (deleting one's own account).
 */
export async function requireStepUp(
  env: AppEnv,
  request: Request,
  admin: SessionUser,
  password: string | undefined,
  opts: { always?: boolean } = {},
): Promise<StepUpResult> {
  const db = getDb(env.DB);
  const now = Date.now();
  const at = opts.always ? null : await readStepUp(db, admin.sessionId);
  if (at !== null && now - at < STEP_UP_MS) return { ok: true };
  if (!password) return { ok: false, status: 401, message: ADMIN_RIGHTS_MESSAGES.stepUpNeeded };
  const attempt = await beginPasswordAttempt(env.DB, { ip: clientIp(request), account: admin.email });
  if (!attempt.ok) return { ok: false, status: 429, message: `${ADMIN_RIGHTS_MESSAGES.stepUpWrong}` };
  if (!admin.passwordHash || !(await verifyPassword(password, admin.passwordHash))) {
    return { ok: false, status: 401, message: ADMIN_RIGHTS_MESSAGES.stepUpWrong };
  }
  await attempt.succeeded();
  await markStepUp(db, admin.sessionId, new Date(now));
  return { ok: true };
}

/** Whether the acting admin is an owner (ADMIN_OWNERS), who may act on other admins. */
export function isOwner(env: AppEnv, admin: { email: string }): boolean {
  return parseOwners(env.ADMIN_OWNERS).has(admin.email.toLowerCase());
}
