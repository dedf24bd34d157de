import { getDb } from "~/db/client.server";
import { isKnownDevice } from "~/db/known-devices.server";
import { AUTH_LIMITS } from "./auth-limits.server";
import { hitRateLimit, refundRateLimit, type RateLimitRule } from "./rate-limit.server";

export type PasswordAttempt = { ok: false; retryAfterSeconds: number } | { ok: true; succeeded: () => Promise<void> };

/**
 * Every place that checks a password (sign-in, the current password on /account, confirming an address on
 * another device) goes through here first. The attempt is counted atomically *before* the password is checked, so
 * however many arrive at once, at most `limit` are ever checked per window, per account and per IP. A right password
 * gives its attempt back, so the limit counts failures as far as a legitimate user can tell.
 */
export async function beginPasswordAttempt(
  db: D1Database,
  subjects: { ip: string; account: string; deviceHash?: string | null },
): Promise<PasswordAttempt> {
  const account = subjects.account.trim().toLowerCase();
  // Counted per account and per device: a browser that has signed in to this account before has a budget of its
  // own, so ten wrong guesses from elsewhere slow everyone else down but never lock the owner out.
  const known = subjects.deviceHash ? await isKnownDevice(getDb(db), account, subjects.deviceHash) : false;
  const rules: [RateLimitRule, string][] = known
    ? [[AUTH_LIMITS.signinFailuresPerKnownDevice, `${account}:${subjects.deviceHash}`]]
    : [
        [AUTH_LIMITS.signinFailuresPerIp, subjects.ip],
        [AUTH_LIMITS.signinFailuresPerAccount, account],
      ];
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
