import { randomToken, sha256Hex, timingSafeEqual } from "~/utils/crypto";
import { isSecureRequest, readCookie } from "./session-cookie.server";

/**
 * Marks the browser that signed up (or asked for a fresh link with the right password), so that confirming the
 * address signs in only that browser. The cookie holds a random value; the verification link's row keeps its hash.
 * Short-lived (the link's 24 hours) and sent only to /verify-email.
 */
const SIGNUP_COOKIE = "clipcut_signup";
const MAX_AGE_S = 24 * 60 * 60;
const VALUE = /^[\w-]{43}$/;

function cookie(request: Request, value: string, maxAge: number): string {
  const attrs = [`${SIGNUP_COOKIE}=${value}`, "Path=/verify-email", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`];
  if (isSecureRequest(request)) attrs.push("Secure");
  return attrs.join("; ");
}

/** This browser's sign-up marker (reused when it already has one): the hash to store and the Set-Cookie to send. */
export async function markSignupBrowser(request: Request): Promise<{ browserHash: string; setCookie: string }> {
  const existing = readCookie(request, SIGNUP_COOKIE);
  const value = existing && VALUE.test(existing) ? existing : randomToken(32);
  return { browserHash: await sha256Hex(value), setCookie: cookie(request, value, MAX_AGE_S) };
}

/** Whether this request comes from the browser whose marker hash a verification link recorded. */
export async function isSignupBrowser(request: Request, browserHash: string | null): Promise<boolean> {
  const value = readCookie(request, SIGNUP_COOKIE);
  if (!browserHash || !value || !VALUE.test(value)) return false;
  return timingSafeEqual(await sha256Hex(value), browserHash);
}

export function clearSignupBrowser(request: Request): string {
  return cookie(request, "", 0);
}
