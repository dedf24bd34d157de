import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import type { AppEnv } from "../app/load-context";
import { withSecurityHeaders } from "./security-headers";

export { UserLedger } from "./user-ledger";
export { AdminFeed } from "./admin-feed";

const handleRemixRequest = createRequestHandler(build);

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export default {
  async fetch(request, env, ctx) {
    const nonce = newNonce();
    try {
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
} satisfies ExportedHandler<AppEnv>;
