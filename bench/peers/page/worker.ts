/** The page peer's Worker: Remix's own request handler, nothing else. */
import { createRequestHandler, type AppLoadContext } from "@remix-run/cloudflare";
import * as build from "remix-server-build";

const handleRemixRequest = createRequestHandler(build, "production");

export default {
  // The repository's AppLoadContext type describes ClipCut's bindings; the peer's context carries only its D1.
  fetch: (request, env, ctx) => handleRemixRequest(request, { cloudflare: { env, ctx } } as unknown as AppLoadContext),
} satisfies ExportedHandler<{ DB: D1Database }>;
