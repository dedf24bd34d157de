import type { ThirdParties } from "./services/third-parties.server";

/** The one place that types what every loader and action receives from the Worker. */
export interface AppEnv extends Env {
  /** Secrets (wrangler secret put / .dev.vars); optional so local mode runs without them. */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Overrides Google's endpoints (tests point them at a fake on loopback). */
  GOOGLE_AUTH_BASE_URL?: string;
  GOOGLE_TOKEN_URL?: string;
  GOOGLE_USERINFO_URL?: string;
  /** Signs the short-lived OAuth state cookie. Required in production. */
  COOKIE_SECRET?: string;
  EMAIL_API_URL?: string;
  EMAIL_API_KEY?: string;
  EMAIL_FROM?: string;
  /** Stripe (docs/payments.md). Without them the Worker refuses to start (wrangler.local.toml sets test ones). */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** Set by the Worker where it builds the request context (workers/app.ts), never by configuration. */
  THIRD_PARTIES?: ThirdParties;
}

export interface AppContext {
  cloudflare: { env: AppEnv; ctx: ExecutionContext };
  /** Per-request CSP nonce for Remix's inline scripts. */
  nonce: string;
}

declare module "@remix-run/cloudflare" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
