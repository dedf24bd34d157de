import { exports } from "cloudflare:workers";
import Stripe from "stripe";
import { env } from "cloudflare:workers";
import { standInOf, type LocalEnv } from "../../workers/local";
import { API_VERSION } from "../../workers/local/stripe-api";
import { ORIGIN } from "./helpers";
import { eventObject } from "../../workers/local/stripe-objects";

/** The local stand-in object (Stripe's books and the outbox), as wrangler.local.toml binds it for these tests. */
export function standIn() {
  const ns = (env as LocalEnv).STAND_IN;
  if (!ns) throw new Error("The workerd tests run on wrangler.local.toml, which binds STAND_IN.");
  return standInOf(ns);
}

/** The webhook secret of the local configuration (the stand-in signs with it; the webhook checks it). */
export const WEBHOOK_SECRET = (env as LocalEnv).STRIPE_WEBHOOK_SECRET ?? "";

const sdk = new Stripe("sk_test_unused", { httpClient: Stripe.createFetchHttpClient() });
let seq = 0;

/** Objects put in the stand-in's books as Stripe has them (the webhook re-reads them from there). */
export async function stripeHas(...objects: object[]) {
  await standIn().put(JSON.stringify(objects));
}

/** An event signed as Stripe signs it (the SDK's test header) and posted to /webhooks/stripe through the Worker. */
export async function deliver(
  type: string,
  object: object,
  opts: { id?: string; secret?: string; livemode?: boolean } = {},
): Promise<Response> {
  const id = opts.id ?? `evt_${++seq}_${Date.now()}`;
  const event = eventObject({
    id,
    type: type as Stripe.Event.Type,
    created: Math.floor(Date.now() / 1000),
    object,
    apiVersion: API_VERSION,
  });
  const payload = JSON.stringify(opts.livemode ? { ...event, livemode: true } : event);
  const header = await sdk.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? WEBHOOK_SECRET,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return exports.default.fetch(
    new Request(`${ORIGIN}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": header },
      body: payload,
    }),
  );
}

/** What a browser submits from the stand-in's Checkout page besides the card: its prefilled billing address. */
export const TEST_ADDRESS = { country: "US", postalCode: "10001" } as const;
