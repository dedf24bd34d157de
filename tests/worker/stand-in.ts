import { env } from "cloudflare:workers";
import { standInOf, type LocalEnv } from "../../workers/local";

/** The local stand-in object (Stripe's books and the outbox), as wrangler.local.toml binds it for these tests. */
export function standIn() {
  const ns = (env as LocalEnv).STAND_IN;
  if (!ns) throw new Error("The workerd tests run on wrangler.local.toml, which binds STAND_IN.");
  return standInOf(ns);
}

/** The webhook secret of the local configuration (the stand-in signs with it; the webhook checks it). */
export const WEBHOOK_SECRET = (env as LocalEnv).STRIPE_WEBHOOK_SECRET ?? "";
