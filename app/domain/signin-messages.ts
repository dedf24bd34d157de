import { ADMIN_MESSAGES } from "./admin";
import { SITE } from "./site";

/**
 * What /signin may say when a link sends someone there. The link carries a code (`?error=banned`), never the text:
 * a sentence taken from the URL would let anyone put their own words into an alert on our domain (phishing).
 * Unknown codes show nothing.
 */
export const SIGNIN_ERRORS = {
  google_cancelled: "Google sign-in was cancelled.",
  google_failed: "Google sign-in failed. Please try again.",
  google_unconfigured: "Google sign-in is not configured on this server.",
  google_start_failed: "Could not start Google sign-in. Please try again.",
  google_profile: "Google did not return the profile we need. Please try again.",
  google_unverified: "Your Google account's email address is not verified.",
  google_other_account:
    "This e-mail address belongs to an account linked to a different Google account. Sign in with that Google account or with your password.",
  // The account could not be written (anything but a race with another sign-up for the same identity).
  profile_create_failed: "Failed to create your profile. Please contact support.",
  banned: `Your account has been banned. If you think this is a mistake, contact ${SITE.supportEmail}.`,
  rate_limited: "Too many attempts. Please wait a few minutes and try again.",
} as const;

export const SIGNIN_NOTICES = {
  already_confirmed: "Your e-mail address is already confirmed. Please sign in.",
  confirmed_no_password:
    "Your e-mail address is confirmed. Sign in with Google, or use “Forgot password?” to set a password.",
  // An open page whose session ended elsewhere (sign out everywhere, a password change, a ban) is sent here.
  session_ended: "Your session has ended. Please sign in again.",
  // The person deleted their own account (their session went with it).
  account_deleted:
    "Your account has been deleted and you are signed out everywhere. We sent a last e-mail to confirm it.",
  // The admin Create Clip form posted without JavaScript after the session ended (spec K10).
  clip_signed_out: ADMIN_MESSAGES.clipSignedOut,
} as const;

export type SigninErrorCode = keyof typeof SIGNIN_ERRORS;
export type SigninNoticeCode = keyof typeof SIGNIN_NOTICES;

const lookup = <T extends Record<string, string>>(table: T, code: string | null): string | null =>
  code !== null && Object.hasOwn(table, code) ? (table[code] ?? null) : null;

export const signinErrorText = (code: string | null) => lookup(SIGNIN_ERRORS, code);
export const signinNoticeText = (code: string | null) => lookup(SIGNIN_NOTICES, code);

/** The /signin address that shows one of the fixed messages. */
export const signinWith = (kind: "error", code: SigninErrorCode) => `/signin?${kind}=${code}`;
export const signinWithNotice = (code: SigninNoticeCode, redirectTo?: string) =>
  `/signin?${new URLSearchParams({ notice: code, ...(redirectTo ? { redirectTo } : {}) })}`;
