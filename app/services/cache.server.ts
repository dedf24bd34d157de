import type { HeadersFunction } from "@remix-run/cloudflare";
import { SESSION_COOKIE_NAMES } from "./session-cookie.server";

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
