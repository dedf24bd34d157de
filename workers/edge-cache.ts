import { BLOG_ARTICLES } from "../app/domain/blog";
import { hasSessionCookie } from "../app/services/cache.server";

/**
 * Anonymous GETs of the public pages are served from a stored copy, rendered once with a placeholder where the CSP
 * nonce goes. Two tiers, both keyed by build version, origin, path and query (a deploy never serves the old build's
 * HTML; a foreign Host never fills our visitors' copy):
 * - the isolate's memory: the page split on the placeholder into bytes encoded once, joined around a fresh nonce per
 *   response (no HTMLRewriter, no cache lookup; a hit costs about what a static asset does);
 * - behind it the Workers Cache API (`caches.default`), which a new isolate fills its memory from.
 * Every response, stored or not, gets its own nonce. A request with a session cookie is never served from or into
 * either tier (`isCacheablePage` keeps it away from `servePublicPage`), so nothing rendered for a person is stored.
 * Hits say where they came from: `X-Page-Cache: hit` with `X-Page-Cache-Tier: memory | cache`; a render says `miss`.
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
/** When the Workers cache copy was rendered (ms since the epoch): memory filled from it keeps its lifetime. */
const STORED_AT = "X-Page-Stored-At";

export function isCacheablePage(request: Request): boolean {
  if (request.method !== "GET" || hasSessionCookie(request)) return false;
  const { pathname } = new URL(request.url);
  return PUBLIC_PAGES.has(pathname) || /^\/blog\/[a-z0-9-]+$/.test(pathname);
}

/**
 * The build, the origin, the page and its query name a copy; the build version retires every copy at a deploy. The
 * origin is the request's (its Host): a page names it (the YouTube embed's origin on /clip), so a copy rendered for
 * a foreign Host is only ever served to requests with that same Host, never to our visitors.
 */
export function pageKey(request: Request, buildVersion: string): string {
  const url = new URL(request.url);
  return `${buildVersion}/${url.protocol}${url.host}${url.pathname}${url.search}`;
}

const cacheRequest = (key: string) => new Request(`https://page-cache.clipcut.internal/${key}`);

/** A page ready to send: the bytes around each nonce, encoded once, and what the response carries besides. */
export interface StoredPage {
  parts: Uint8Array[];
  /** The parts' lengths added up. */
  bytes: number;
  status: number;
  headers: [string, string][];
  /** Ms since the epoch; not served from memory after. */
  expiresAt: number;
}

/** Pages in memory, the least recently served dropped first once there are more than `cap`. */
export class PageMemory {
  private readonly pages = new Map<string, StoredPage>();

  constructor(readonly cap: number) {}

  get(key: string, now = Date.now()): StoredPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.pages.delete(key);
    if (page.expiresAt <= now) return undefined;
    // Map order is use order: the served page goes to the back, the first key is the one unused longest.
    this.pages.set(key, page);
    return page;
  }

  set(key: string, page: StoredPage): void {
    this.pages.delete(key);
    this.pages.set(key, page);
    for (const oldest of this.pages.keys()) {
      if (this.pages.size <= this.cap) break;
      this.pages.delete(oldest);
    }
  }

  has(key: string): boolean {
    return this.pages.has(key);
  }

  get size(): number {
    return this.pages.size;
  }

  clear(): void {
    this.pages.clear();
  }
}

/** Each public page and each blog post once; other queries of them take turns in the same room. */
export const pageMemory = new PageMemory(PUBLIC_PAGES.size + BLOG_ARTICLES.length);

const encoder = new TextEncoder();
/** React writes the nonce as this attribute; splitting on the whole attribute leaves page text alone. */
const PLACEHOLDER_ATTRIBUTE = `nonce="${NONCE_PLACEHOLDER}"`;

/** Headers a stored page is sent with: never a shared cache's (the HTML carries a nonce), never our bookkeeping. */
function clientHeaders(from: Headers): [string, string][] {
  const headers = new Headers(from);
  headers.set("Cache-Control", "private, no-cache");
  for (const name of ["Age", "Content-Length", STORED_AT, "X-Page-Cache", "X-Page-Cache-Tier"]) headers.delete(name);
  return [...headers];
}

export function storedPage(html: string, status: number, headers: Headers, expiresAt: number): StoredPage {
  const parts = html.split(PLACEHOLDER_ATTRIBUTE).map((part) => encoder.encode(part));
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  return { parts, bytes, status, headers: clientHeaders(headers), expiresAt };
}

/** The stored page with this response's nonce in every nonce attribute, sent with its length. */
function sendStoredPage(page: StoredPage, nonce: string, tier: "memory" | "cache" | null): Response {
  const attribute = encoder.encode(`nonce="${nonce}"`);
  const body = new Uint8Array(page.bytes + attribute.length * (page.parts.length - 1));
  let at = 0;
  for (const [i, part] of page.parts.entries()) {
    if (i > 0) {
      body.set(attribute, at);
      at += attribute.length;
    }
    body.set(part, at);
    at += part.length;
  }
  const headers = new Headers(page.headers);
  headers.set("Content-Length", String(body.length));
  headers.set("X-Page-Cache", tier ? "hit" : "miss");
  if (tier) headers.set("X-Page-Cache-Tier", tier);
  return new Response(body, { status: page.status, headers });
}

/** A response that is not stored (an error page, a redirect) with a fresh nonce in every nonce attribute. */
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
 * Serves a cacheable page: from memory, else from the Workers cache (and into memory), else rendered with the
 * placeholder nonce and stored in both when it is a plain 200 HTML answer that sets no cookie. Either way the answer
 * carries `nonce`.
 */
export async function servePublicPage(
  request: Request,
  ctx: ExecutionContext,
  buildVersion: string,
  nonce: string,
  render: (placeholderNonce: string) => Promise<Response>,
): Promise<Response> {
  const key = pageKey(request, buildVersion);
  const remembered = pageMemory.get(key);
  if (remembered) return sendStoredPage(remembered, nonce, "memory");

  // The DOM lib's CacheStorage type hides the Workers-only `default` cache.
  const cache = (caches as unknown as { default: Cache }).default;
  const hit = await cache.match(cacheRequest(key));
  if (hit) {
    const storedAt = Number(hit.headers.get(STORED_AT));
    const expiresAt = (Number.isFinite(storedAt) && storedAt > 0 ? storedAt : Date.now()) + STORED_SECONDS * 1000;
    const page = storedPage(await hit.text(), hit.status, hit.headers, expiresAt);
    if (expiresAt > Date.now()) pageMemory.set(key, page);
    return sendStoredPage(page, nonce, "cache");
  }

  const rendered = await render(NONCE_PLACEHOLDER);
  const storable =
    rendered.status === 200 &&
    !rendered.headers.has("Set-Cookie") &&
    (rendered.headers.get("Content-Type") ?? "").startsWith("text/html");
  if (!storable) return withFreshNonce(rendered, nonce);
  const html = await rendered.text();
  const storedAt = Date.now();
  const page = storedPage(html, rendered.status, rendered.headers, storedAt + STORED_SECONDS * 1000);
  pageMemory.set(key, page);
  const forCache = new Response(html, rendered);
  forCache.headers.set("Cache-Control", `public, s-maxage=${STORED_SECONDS}`);
  forCache.headers.set(STORED_AT, String(storedAt));
  forCache.headers.delete("Vary");
  ctx.waitUntil(cache.put(cacheRequest(key), forCache));
  return sendStoredPage(page, nonce, null);
}
