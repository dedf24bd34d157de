import { AUTH_LIMITS } from "./auth-limits.server";
import { hitRateLimit, refundRateLimit } from "./rate-limit.server";

export type PasswordAttempt = { ok: false; retryAfterSeconds: number } | { ok: true; succeeded: () => Promise<void> };

/**
 * Every place that checks a password (sign-in, the current password on /account, confirming an address on
 * another device) goes through here first. The attempt is counted atomically *before* the password is checked, so
 * however many arrive at once, at most `limit` are ever checked per window, per account and per IP. A right password
 * gives its attempt back, so the limit counts failures as far as a legitimate user can tell.
 */
export async function beginPasswordAttempt(
  db: D1Database,
  subjects: { ip: string; account: string },
): Promise<PasswordAttempt> {
  const rules = [
    [AUTH_LIMITS.signinFailuresPerIp, subjects.ip],
    [AUTH_LIMITS.signinFailuresPerAccount, subjects.account.trim().toLowerCase()],
  ] as const;
  for (const [rule, subject] of rules) {
    const limit = await hitRateLimit(db, rule, subject);
    if (!limit.ok) return limit;
  }
  return {
    ok: true,
    succeeded: async () => {
      for (const [rule, subject] of rules) await refundRateLimit(db, rule, subject);
    },
  };
}
