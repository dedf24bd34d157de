import Stripe from "stripe";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { thirdPartiesOf } from "./third-parties.server";

export class BillingConfigError extends Error {}

/**
 * What is missing for payments, or null. Both secrets are needed wherever the Worker runs (wrangler.local.toml gives
 * the local stand-in test ones). The Worker refuses to serve while this is not null: a missing key must never become
 * a free plan, whatever APP_MODE says.
 */
export function billingConfigProblem(env: AppEnv): string | null {
  const missing = (["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const).filter((k) => !env[k]);
  if (missing.length === 0) return null;
  return `Payments are not configured: set ${missing.join(" and ")} with \`wrangler secret put\` (see docs/payments.md).`;
}

export interface BillingStripe {
  stripe: Stripe;
  webhookSecret: string;
}

/**
 * The Stripe client, the way Stripe documents it for Workers (fetch + Web Crypto), sending through the fetch chosen
 * where the request context was built (Stripe's API in production, the stand-in locally).
 */
export function stripeFor(env: AppEnv, _db?: Db): BillingStripe {
  const problem = billingConfigProblem(env);
  if (problem || !env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) throw new BillingConfigError(problem ?? "");
  return {
    stripe: new Stripe(env.STRIPE_SECRET_KEY, {
      httpClient: Stripe.createFetchHttpClient(thirdPartiesOf(env).stripeFetch),
    }),
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
  };
}

export const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** Stripe timestamps are seconds. */
export const msOf = (seconds: number) => seconds * 1000;

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

export type { Stripe };
