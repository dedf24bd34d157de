/** Methods that can never change state. Every other method (PATCH, patch, PROPFIND, …) counts as a write. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The path as the router will see it: percent-decoded, lower case, no repeated or trailing slashes and no Remix
 * data suffix, so "/api/v1/%74oken", "/API/V1/TOKEN/" and "/api/v1/token.data" all read "/api/v1/token".
 * Null when it cannot be decoded (then nothing is exempt).
 */
export function routerPath(pathname: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  path = path
    .toLowerCase()
    .replace(/\/{2,}/g, "/")
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  return path || "/";
}

/**
 * Cookie-authenticated writes must come from our own pages. The only exemption: Bearer-token calls to API v1
 * (the extension, the companion), which carry no ambient credentials — except /api/v1/token, which is
 * authorised by the session cookie. A browser cannot add an Authorization header to a cross-site request without
 * a CORS preflight, which we never grant.
 */
export function isForeignOriginWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const url = new URL(request.url);
  const path = routerPath(url.pathname);
  const bearer = /^Bearer\s/i.test(request.headers.get("Authorization") ?? "");
  if (bearer && path !== null && path.startsWith("/api/v1/") && path !== "/api/v1/token") return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== url.origin;
  return request.headers.get("Sec-Fetch-Site") === "cross-site";
}
