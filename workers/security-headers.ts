/** Headers every dynamic response carries. Static assets get the same through public/_headers. */
/** Where a form may end up: our own origin and Google's consent screen (a form POST redirects there). */
export function formActionSources(googleAuthBaseUrl?: string): string {
  const google = googleAuthBaseUrl ? new URL(googleAuthBaseUrl).origin : "https://accounts.google.com";
  // Stripe's hosted Checkout and Customer Portal: our forms redirect there (plans, packs, "Manage billing").
  return `'self' ${google} https://checkout.stripe.com https://billing.stripe.com`;
}

/**
 * Where a page may play media from: a clip of a direct media link plays that link in <video> (/view-clip), so any
 * https host; plain http only in local mode, where the page itself is plain http.
 */
export function mediaSources(appMode?: string): string {
  return appMode === "local" ? "'self' https: http:" : "'self' https:";
}

export function contentSecurityPolicy(nonce: string, formAction = formActionSources(), media = mediaSources()): string {
  return [
    "default-src 'self'",
    // Only Remix's nonce'd inline scripts and our own bundles run; no 'unsafe-inline'.
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https://i.ytimg.com",
    "font-src 'self'",
    // 'self' covers our own ws:/wss: endpoint (CSP Level 3); no other host may be reached from a page.
    "connect-src 'self'",
    "frame-src https://www.youtube-nocookie.com https://www.youtube.com",
    `media-src ${media}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action ${formAction}`,
    "object-src 'none'",
  ].join("; ");
}

export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export function withSecurityHeaders(response: Response, nonce: string, formAction?: string, media?: string): Response {
  // Responses from fetch() or upgrades can be immutable: copy before touching headers.
  if (response.status === 101) return response;
  const secured = new Response(response.body, response);
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) secured.headers.set(name, value);
  if (!secured.headers.has("Content-Security-Policy")) {
    secured.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, formAction, media));
  }
  return secured;
}

/**
 * Outside local mode every request is served over https: plain http is redirected (permanently, same path), so
 * sessions only ever travel in `__Host-` Secure cookies. Local mode keeps plain http for localhost.
 */
export function httpsRedirect(request: Request, appMode: string | undefined): Response | null {
  if (appMode === "local") return null;
  const url = new URL(request.url);
  if (url.protocol !== "http:") return null;
  url.protocol = "https:";
  return new Response(null, { status: 308, headers: { Location: url.href, "Cache-Control": "no-store" } });
}
