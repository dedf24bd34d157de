import type { HeadersFunction } from "@remix-run/cloudflare";
import { readCookie, SESSION_COOKIE_NAMES } from "./session-cookie.server";

export function hasSessionCookie(request: Request): boolean {
  return SESSION_COOKIE_NAMES.some((name) => Boolean(readCookie(request, name)));
}

/**
 * The last word on caching, for every response the Worker sends: anything rendered for a session (the request
 * carries a session cookie) or that sets a cookie, and every answer to a write, is `private, no-store`. Only
 * anonymous GETs keep the policy their route chose.
 */
export function applyPrivateCachePolicy(request: Request, response: Response): void {
  const write = request.method !== "GET" && request.method !== "HEAD";
  if (write) {
    response.headers.set("Cache-Control", "no-store");
    return;
  }
  if (hasSessionCookie(request) || response.headers.has("Set-Cookie")) {
    response.headers.set("Cache-Control", "private, no-store");
    const vary = response.headers.get("Vary");
    if (!vary?.toLowerCase().includes("cookie")) response.headers.set("Vary", vary ? `${vary}, Cookie` : "Cookie");
  }
}

/**
 * Cache policy for public pages. Anonymous HTML is the same for everyone, but it carries a per-response CSP nonce:
 * only the Worker keeps a copy (workers/edge-cache.ts, rewriting the nonce per response), never a shared cache.
 * A visitor with a session cookie sees a personal header ("Go to Dashboard") and must never get a shared copy.
 */
export function publicCacheHeaders(request: Request): HeadersInit {
  const cookie = request.headers.get("Cookie") ?? "";
  const signedIn = SESSION_COOKIE_NAMES.some((name) => cookie.includes(`${name}=`));
  return signedIn
    ? { "Cache-Control": "private, no-store", Vary: "Cookie" }
    : { "Cache-Control": "private, no-cache", Vary: "Cookie" };
}

/**
 * `headers` for public routes that have an action: the layout's cache policy on GET, and on a form post
 * the action's own headers (e.g. Retry-After) with no caching at all.
 */
export const publicPageHeaders: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const fromAction = [...actionHeaders.keys()].length > 0;
  for (const [name, value] of fromAction ? actionHeaders : loaderHeaders) headers.set(name, value);
  if (fromAction) headers.set("Cache-Control", "private, no-store");
  return headers;
};

/** `headers` for form pages outside the public layout: pass an action's headers (e.g. Retry-After) through. */
export const formPageHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  for (const [name, value] of actionHeaders) headers.set(name, value);
  headers.set("Cache-Control", "private, no-store");
  return headers;
};
