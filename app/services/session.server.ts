import { redirect } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { rememberDevice } from "~/db/known-devices.server";
import { insertSession } from "~/db/user-access.server";
import { deviceMarker } from "./device-cookie.server";
import { randomToken, sha256Hex } from "~/utils/crypto";
import { clearSessionCookie, readSessionToken, SESSION_TTL_MS, sessionCookie } from "./session-cookie.server";
import type { AppEnv } from "~/load-context";
import { endSession } from "./access-revocation.server";
import { clientIp } from "./rate-limit.server";

/** A session unused for this long ends, whatever its absolute lifetime (30 days) says. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** "Last used" is written at most this often per session, so reading pages costs no D1 write per request. */
export const SESSION_TOUCH_MS = 60 * 60 * 1000;

/**
 * Starts a new session for the user and redirects. Any session this browser already had is ended first, so the id
 * changes at every sign-in (no session fixation). The maintenance notice flag is set, as after every sign-in.
 */
export async function createUserSession(
  env: AppEnv,
  request: Request,
  userId: string,
  redirectTo: string,
  extraHeaders: string[] = [],
): Promise<Response> {
  await endCurrentSession(env, request);
  const db = getDb(env.DB);
  const token = randomToken(32); // 256 bits
  await insertSession(db, {
    id: await sha256Hex(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    lastActiveAt: new Date(),
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    ip: clientIp(request),
    showMaintenanceNotification: true,
  });
  // This browser has now signed in to the account: a lockout others cause will not stop it (password-attempts).
  const device = await deviceMarker(request);
  await rememberDevice(db, userId, device.hash);
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(request, token));
  headers.append("Set-Cookie", device.setCookie);
  for (const cookie of extraHeaders) headers.append("Set-Cookie", cookie);
  return redirect(safeRedirect(redirectTo), { headers });
}

/** Ends this browser's session (and the extension tokens it issued). Returns the Set-Cookie that clears it. */
export async function endCurrentSession(env: AppEnv, request: Request): Promise<string> {
  const token = readSessionToken(request);
  if (token) {
    await endSession(env, await sha256Hex(token));
  }
  return clearSessionCookie(request);
}

export { setMaintenanceFlag } from "~/db/user-access.server";

// Any C0/C1 control character or a backslash: browsers strip tabs and newlines and read "\" as "/" in URLs.
// eslint-disable-next-line no-control-regex
const UNSAFE_URL_CHARS = /[\u0000-\u001f\u007f-\u009f\\]/;
const REDIRECT_BASE = "https://clipcut.invalid";

/**
 * Only same-site relative paths. Checked the way a browser will read the Location: after refusing characters that
 * browsers silently drop or rewrite, the path must resolve to our own origin ("//evil", "/\t/evil" and
 * "javascript:" all fall back). Never throws, whatever the input.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length > 2048 || !to.startsWith("/") || UNSAFE_URL_CHARS.test(to)) return fallback;
  try {
    const url = new URL(to, REDIRECT_BASE);
    const path = url.pathname + url.search + url.hash;
    // "/.//evil" resolves to the path "//evil", which a browser would read as another host.
    if (url.origin !== REDIRECT_BASE || path.startsWith("//")) return fallback;
    return path;
  } catch {
    return fallback;
  }
}
