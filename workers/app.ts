import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import type { AppEnv } from "../app/load-context";
import { isCacheablePage, servePublicPage } from "./edge-cache";
import { routeRealtime } from "./realtime";
import { runScheduled } from "./scheduled";
import { formActionSources, withSecurityHeaders as secure } from "./security-headers";

export { UserLedger } from "./user-ledger";
export { AdminFeed } from "./admin-feed";

const handleRemixRequest = createRequestHandler(build);

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Cookie-authenticated writes must come from our own pages. Bearer-token API calls (the extension, the companion)
 * carry no ambient credentials and are exempt, except /api/v1/token, which is authorised by the session cookie.
 */
export function isForeignOriginWrite(request: Request): boolean {
  if (!UNSAFE_METHODS.has(request.method)) return false;
  const url = new URL(request.url);
  if (url.pathname.startsWith("/api/v1/") && url.pathname !== "/api/v1/token") return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== url.origin;
  return request.headers.get("Sec-Fetch-Site") === "cross-site";
}

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export default {
  async fetch(request, env, ctx) {
    const nonce = newNonce();
    const formAction = formActionSources(env.GOOGLE_AUTH_BASE_URL);
    const withSecurityHeaders = (response: Response, n: string) => secure(response, n, formAction);
    if (isForeignOriginWrite(request)) {
      return withSecurityHeaders(
        new Response("This request came from another site and was refused. Please use the form on our site.", {
          status: 403,
          headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
        }),
        nonce,
      );
    }
    try {
      const upgraded = await routeRealtime(request, env, ctx);
      if (upgraded) return withSecurityHeaders(upgraded, nonce);
      if (isCacheablePage(request)) {
        const page = await servePublicPage(request, ctx, build.assets.version, nonce, (placeholder) =>
          handleRemixRequest(request, { cloudflare: { env, ctx }, nonce: placeholder }),
        );
        return withSecurityHeaders(page, nonce);
      }
      const response = withSecurityHeaders(
        await handleRemixRequest(request, { cloudflare: { env, ctx }, nonce }),
        nonce,
      );
      // Answers to form posts and API writes are never stored by a cache.
      if (request.method !== "GET" && request.method !== "HEAD") response.headers.set("Cache-Control", "no-store");
      return response;
    } catch (error) {
      // Log the detail for us; the client gets a plain message and never a stack trace.
      console.error(JSON.stringify({ level: "error", msg: "unhandled", url: request.url, error: String(error) }));
      return withSecurityHeaders(
        new Response("Something went wrong on our side. Please try again in a moment.", {
          status: 500,
          headers: { "Content-Type": "text/plain; charset=utf-8" },
        }),
        nonce,
      );
    }
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduled(env));
  },
} satisfies ExportedHandler<AppEnv>;
