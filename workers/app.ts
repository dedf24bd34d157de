import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import type { AppEnv } from "../app/load-context";
import { getDb } from "../app/db/client.server";
import { applyPrivateCachePolicy } from "../app/services/cache.server";
import { noticeTeamStatus } from "../app/services/teams.server";
import { billingConfigProblem } from "../app/services/stripe.server";
import { productionThirdParties, type ThirdParties } from "../app/services/third-parties.server";
import { redactUrl } from "../app/utils/redact";
import { inApiShape } from "./api-errors";
import { isCacheablePage, servePublicPage } from "./edge-cache";
import { stripInternalHeaders } from "./internal-headers";
import { isForeignOriginWrite } from "./origin-check";
import { routeRealtime } from "./realtime";
import { runScheduled } from "./scheduled";
import { UserLedger as LedgerObject } from "./user-ledger";
import { formActionSources, httpsRedirect, mediaSources, withSecurityHeaders as secure } from "./security-headers";

export { AdminFeed } from "./admin-feed";

// Always production: errors reach clients sanitized, also when vitest compiles the app from source.
const handleRemixRequest = createRequestHandler(build, "production");

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The Worker itself; `env` already carries the third parties chosen for the request (clipcutWorker, below). */
const handler = {
  async fetch(incoming, env, ctx) {
    // Our own X-ClipCut-* headers are set only below, after authentication; a client's copies go first.
    const request = stripInternalHeaders(incoming);
    const nonce = newNonce();
    const formAction = formActionSources(env.GOOGLE_AUTH_BASE_URL);
    const media = mediaSources(env.APP_MODE);
    const withSecurityHeaders = (response: Response, n: string) => secure(response, n, formAction, media);
    const toHttps = httpsRedirect(request, env.APP_MODE);
    if (toHttps) return withSecurityHeaders(toHttps, nonce);
    if (isForeignOriginWrite(request)) {
      return withSecurityHeaders(
        new Response("This request came from another site and was refused. Please use the form on our site.", {
          status: 403,
          headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
        }),
        nonce,
      );
    }
    // Production without Stripe's secrets does not serve at all: never a silent free upgrade (docs/payments.md).
    const billingProblem = billingConfigProblem(env);
    if (billingProblem) {
      console.error(JSON.stringify({ level: "error", msg: "start-up refused", error: billingProblem }));
      return withSecurityHeaders(
        new Response(`ClipCut cannot start: ${billingProblem}`, {
          status: 503,
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
      const context = { cloudflare: { env, ctx }, nonce };
      const response = withSecurityHeaders(inApiShape(request, await handleRemixRequest(request, context)), nonce);
      // Answers to writes and anything rendered for a session are never stored by a shared cache.
      applyPrivateCachePolicy(request, response);
      return response;
    } catch (error) {
      // Log the detail for us; the client gets a plain message and never a stack trace.
      console.error(
        JSON.stringify({ level: "error", msg: "unhandled", url: redactUrl(request.url), error: String(error) }),
      );
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

/**
 * Picks the third parties for a request, once, where its context is built: Stripe's API and the e-mail provider in
 * production; workers/local.ts passes its stand-ins. `origin` is the site's, for addresses a third party hands out.
 */
/**
 * The user's ledger as deployed: its team notices (e-mail and audit) go through the app's teams service, handed in
 * here as its notice port.
 */
export class UserLedger extends LedgerObject {
  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env, {
      teamStatus: (ownerId, plan, active) => noticeTeamStatus({ env, db: getDb(env.DB) }, ownerId, plan, active),
    });
  }
}

export type ChooseThirdParties = (env: AppEnv, origin: string, ctx: ExecutionContext) => ThirdParties;

/** The Worker composed with its third parties. */
export function clipcutWorker(choose: ChooseThirdParties) {
  const compose = (env: AppEnv, origin: string, ctx: ExecutionContext): AppEnv => ({
    ...env,
    THIRD_PARTIES: choose(env, origin, ctx),
  });
  return {
    fetch: (request, env, ctx) => handler.fetch(request, compose(env, new URL(request.url).origin, ctx), ctx),
    scheduled: (controller, env, ctx) => handler.scheduled(controller, compose(env, "http://localhost", ctx), ctx),
  } satisfies ExportedHandler<AppEnv>;
}

/** Production: Stripe's API and the e-mail provider. Nothing of the local stand-ins is in this bundle. */
export default clipcutWorker((env) => productionThirdParties(env));
