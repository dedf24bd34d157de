/**
 * The session cookie holds only a random id. Over https it takes the __Host- prefix (Secure, path=/, no Domain);
 * on plain-http localhost a browser would drop a Secure cookie, so it goes without.
 */
export const SECURE_SESSION_COOKIE = "__Host-clipcut_session";
export const LOCAL_SESSION_COOKIE = "clipcut_session";
export const SESSION_COOKIE_NAMES = [SECURE_SESSION_COOKIE, LOCAL_SESSION_COOKIE] as const;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

function cookieName(request: Request) {
  return isSecureRequest(request) ? SECURE_SESSION_COOKIE : LOCAL_SESSION_COOKIE;
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null; // malformed escapes: treat as absent rather than fail the request
    }
  }
  return null;
}

export function readSessionToken(request: Request): string | null {
  return readCookie(request, cookieName(request));
}

export function sessionCookie(request: Request, token: string, maxAgeMs = SESSION_TTL_MS): string {
  const attrs = [
    `${cookieName(request)}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
  ];
  if (isSecureRequest(request)) attrs.push("Secure");
  return attrs.join("; ");
}

export function clearSessionCookie(request: Request): string {
  return sessionCookie(request, "", 0);
}
