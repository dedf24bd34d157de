import Stripe from "stripe";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { localStripeFetch } from "./stripe-local.server";

/** Local mode signs its stand-in events with this when no STRIPE_WEBHOOK_SECRET is set. */
export const LOCAL_WEBHOOK_SECRET = "whsec_clipcut_local_mode_only";

export class BillingConfigError extends Error {}

/**
 * What is missing for payments, or null. Production needs both secrets; local mode runs the stand-in without them.
 * The Worker refuses to serve in production while this is not null: a missing key must never become a free plan.
 */
export function billingConfigProblem(env: AppEnv): string | null {
  if (env.APP_MODE === "local") return null;
  const missing = (["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const).filter((k) => !env[k]);
  if (missing.length === 0) return null;
  return `Payments are not configured: set ${missing.join(" and ")} with \`wrangler secret put\` (see docs/payments.md).`;
}

export interface BillingStripe {
  stripe: Stripe;
  webhookSecret: string;
  /** True when the in-Worker stand-in answers instead of Stripe (local mode without a key). */
  local: boolean;
}

/**
 * The Stripe client, the way Stripe documents it for Workers (fetch + Web Crypto). In local mode without a key the
 * SDK talks to the stand-in through the same fetch boundary, so everything from the SDK call on is the real path.
 */
export function stripeFor(env: AppEnv, db: Db): BillingStripe {
  const problem = billingConfigProblem(env);
  if (problem) throw new BillingConfigError(problem);
  if (env.STRIPE_SECRET_KEY) {
    return {
      stripe: new Stripe(env.STRIPE_SECRET_KEY, { httpClient: Stripe.createFetchHttpClient() }),
      webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? LOCAL_WEBHOOK_SECRET,
      local: false,
    };
  }
  return {
    stripe: new Stripe("sk_test_clipcut_local", {
      httpClient: Stripe.createFetchHttpClient(localStripeFetch(db)),
      maxNetworkRetries: 0,
    }),
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? LOCAL_WEBHOOK_SECRET,
    local: true,
  };
}

export const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** Stripe timestamps are seconds. */
export const msOf = (seconds: number) => seconds * 1000;

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

export type { Stripe };
