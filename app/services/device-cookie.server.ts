import { randomToken, sha256Hex } from "~/utils/crypto";
import { isSecureRequest, readCookie } from "./session-cookie.server";

/**
 * A long-lived random marker for "this browser has signed in here before" (app/db/known-devices.server.ts keeps
 * its hash per account). It grants nothing by itself: it only spares its owner the lockout strangers cause.
 */
const SECURE_NAME = "__Host-clipcut_device";
const LOCAL_NAME = "clipcut_device";
const MAX_AGE_S = 400 * 24 * 60 * 60;
const VALUE = /^[\w-]{43}$/;

const nameFor = (request: Request) => (isSecureRequest(request) ? SECURE_NAME : LOCAL_NAME);

/** The hash of this browser's device marker, or null when it has none. */
export async function deviceHashOf(request: Request): Promise<string | null> {
  const value = readCookie(request, nameFor(request));
  return value && VALUE.test(value) ? sha256Hex(value) : null;
}

/** This browser's marker (a new one when it has none): its hash to remember and the Set-Cookie to send. */
export async function deviceMarker(request: Request): Promise<{ hash: string; setCookie: string }> {
  const existing = readCookie(request, nameFor(request));
  const value = existing && VALUE.test(existing) ? existing : randomToken(32);
  const attrs = [`${nameFor(request)}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${MAX_AGE_S}`];
  if (isSecureRequest(request)) attrs.push("Secure");
  return { hash: await sha256Hex(value), setCookie: attrs.join("; ") };
}
