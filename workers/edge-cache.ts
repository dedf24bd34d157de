import { hasSessionCookie } from "../app/services/cache.server";

/**
 * Anonymous GETs of the public pages come from the Workers Cache API (`caches.default`). The page is rendered once
 * with a placeholder where the CSP nonce goes and stored under a key that includes the build version (a deploy
 * never serves the old build's HTML). Every response, cached or not, gets a fresh nonce by an HTMLRewriter pass, so
 * no two responses share one. A request with a session cookie never reads or writes the cache.
 */

const PUBLIC_PAGES = new Set([
  "/",
  "/features",
  "/pricing",
  "/about",
  "/help",
  "/contact",
  "/download",
  "/blog",
  "/privacy",
  "/terms",
  "/clip",
]);

/** Stands where the nonce goes in a stored page; never sent to a browser. */
export const NONCE_PLACEHOLDER = "cc-nonce-placeholder-0";
/** How long a stored page is served: a content change reaches visitors within this, a deploy at once. */
const STORED_SECONDS = 300;

export function isCacheablePage(request: Request): boolean {
  if (request.method !== "GET" || hasSessionCookie(request)) return false;
  const { pathname } = new URL(request.url);
  return PUBLIC_PAGES.has(pathname) || /^\/blog\/[a-z0-9-]+$/.test(pathname);
}

function cacheKey(request: Request, buildVersion: string): Request {
  const url = new URL(request.url);
  // Only the page and its query name a copy; the build version retires every copy at a deploy.
  return new Request(`https://page-cache.clipcut.internal/${buildVersion}${url.pathname}${url.search}`);
}

/** The stored page with a fresh nonce in every nonce attribute. */
export function withFreshNonce(response: Response, nonce: string): Response {
  const headers = new Headers(response.headers);
  // The copy we keep is for this Worker only: no shared cache may keep HTML that carries a nonce.
  headers.set("Cache-Control", "private, no-cache");
  headers.delete("Age");
  const rewritten = new HTMLRewriter()
    .on("[nonce]", {
      element(element) {
        if (element.getAttribute("nonce") === NONCE_PLACEHOLDER) element.setAttribute("nonce", nonce);
      },
    })
    .transform(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
  return rewritten;
}

/**
 * Serves a cacheable page: from the cache when stored, else rendered (with the placeholder nonce) and stored when
 * it is a plain 200 with no cookie set. Either way the answer carries `nonce`.
 */
export async function servePublicPage(
  request: Request,
  ctx: ExecutionContext,
  buildVersion: string,
  nonce: string,
  render: (placeholderNonce: string) => Promise<Response>,
): Promise<Response> {
  // The DOM lib's CacheStorage type hides the Workers-only `default` cache.
  const cache = (caches as unknown as { default: Cache }).default;
  const key = cacheKey(request, buildVersion);
  const hit = await cache.match(key);
  if (hit) {
    const response = withFreshNonce(hit, nonce);
    response.headers.set("X-Page-Cache", "hit");
    return response;
  }
  const rendered = await render(NONCE_PLACEHOLDER);
  const storable =
    rendered.status === 200 &&
    !rendered.headers.has("Set-Cookie") &&
    (rendered.headers.get("Content-Type") ?? "").startsWith("text/html");
  if (!storable) return withFreshNonce(rendered, nonce);
  const [forCache, forClient] = (rendered.body as ReadableStream).tee();
  const stored = new Response(forCache, rendered);
  stored.headers.set("Cache-Control", `public, s-maxage=${STORED_SECONDS}`);
  stored.headers.delete("Vary");
  ctx.waitUntil(cache.put(key, stored));
  const response = withFreshNonce(new Response(forClient, rendered), nonce);
  response.headers.set("X-Page-Cache", "miss");
  return response;
}
