/**
 * The local Worker (wrangler.local.toml; `npm start`, e2e, the workerd tests): production's Worker composed with the
 * local stand-ins instead of Stripe's API and the e-mail provider, plus the pages Stripe would host, under /dev/.
 * This is the one module that imports workers/local/ (ESLint keeps it so); wrangler.toml never bundles it, and
 * `npm run deploy:check` fails if the stand-in's marker shows up in the production bundle.
 */
import Stripe from "stripe";
import type { LedgerResult } from "../app/domain/ledger";
import type { AppEnv } from "../app/load-context";
import { productionThirdParties, type ThirdParties } from "../app/services/third-parties.server";
import { clipcutWorker } from "./app";
import { isForeignOriginWrite } from "./origin-check";
import { devUsersRoute } from "./local/dev-users";
import { routeDev, isDevPath } from "./local/pages";
import type { LocalStandIn } from "./local/stand-in-object";

import { UserLedger as ProductionUserLedger } from "./app";

export { AdminFeed } from "./app";
export { LocalStandIn } from "./local/stand-in-object";

export interface LocalEnv extends AppEnv {
  /** Only wrangler.local.toml binds it: without it there are no stand-ins and no /dev/ pages. */
  STAND_IN?: DurableObjectNamespace<LocalStandIn>;
}

export const standInOf = (ns: DurableObjectNamespace<LocalStandIn>) => ns.get(ns.idFromName("stand-in"));

type IncomingRequest = Parameters<ExportedHandlerFetchHandler<LocalEnv>>[0];

const webhooks = new Stripe("sk_test_clipcut_stand_in");
const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * Posts the events the stand-in recorded to /webhooks/stripe through this Worker, signed with the webhook secret of
 * the local configuration, as Stripe delivers them. A refused event stays for the next delivery. An event refused
 * inside another's delivery (a webhook that calls Stripe, e.g. a refund before its payment's invoice.paid went out) is
 * retried once the rest has gone out, as Stripe retries a refused event.
 */
export async function deliverEvents(env: LocalEnv, origin: string, ctx: ExecutionContext): Promise<number> {
  if (!env.STAND_IN || !env.STRIPE_WEBHOOK_SECRET) return 0;
  const stub = standInOf(env.STAND_IN);
  let delivered = 0;
  for (let pass = 0; pass < MAX_DELIVERY_PASSES; pass++) {
    const events = await stub.claimEvents();
    if (events.length === 0) break;
    for (const event of events) {
      if (!(await deliverOne(env, origin, ctx, event.payload))) {
        await stub.settleEvent(event.id, false);
        // The rest of the batch goes back too, so events keep their order.
        for (const later of events.slice(events.indexOf(event) + 1)) await stub.settleEvent(later.id, false);
        return delivered;
      }
      await stub.settleEvent(event.id, true);
      delivered += 1;
    }
  }
  return delivered;
}

/** Each pass delivers at least one event or stops; events that beget events settle within a few passes. */
const MAX_DELIVERY_PASSES = 5;

async function deliverOne(env: LocalEnv, origin: string, ctx: ExecutionContext, payload: string): Promise<boolean> {
  const signature = await webhooks.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: env.STRIPE_WEBHOOK_SECRET!,
    cryptoProvider,
  });
  const response = await local.fetch(
    // A request from outside, as Stripe's would be (it has no Cloudflare properties here).
    new Request(`${origin}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature, "User-Agent": "Stripe/1.0" },
      body: payload,
    }) as IncomingRequest,
    env,
    ctx,
  );
  if (!response.ok)
    console.warn(JSON.stringify({ level: "warn", msg: "stand-in event refused", status: response.status }));
  return response.ok;
}

/** The stand-ins as the app's third parties: the SDK's fetch goes to the stand-in object; mail to its outbox. */
function standIns(env: LocalEnv, origin: string, ctx: ExecutionContext): ThirdParties {
  if (!env.STAND_IN) return productionThirdParties(env);
  const stub = standInOf(env.STAND_IN);
  return {
    async stripeFetch(input, init) {
      const request = new Request(input, init);
      request.headers.set("X-Stand-In-Origin", origin);
      const response = await stub.fetch(request);
      // Stripe sends its events on its own; here they go out before the SDK call returns, so a page shows the result.
      if (request.method !== "GET") await deliverEvents(env, origin, ctx);
      return response;
    },
    mailer: { send: async (message) => stub.sendMail(message) },
  };
}

const app = clipcutWorker(standIns);

/**
 * The user's ledger as the local Worker composes it: its team notices reach the stand-ins' outbox, and it has a clock
 * port for the stand-in's Stripe test clocks (production's object has no such door).
 */
export class UserLedger extends ProductionUserLedger {
  constructor(ctx: DurableObjectState, env: LocalEnv) {
    const ns = env.STAND_IN;
    super(
      ctx,
      ns
        ? {
            ...env,
            THIRD_PARTIES: {
              stripeFetch: (input, init) => standInOf(ns).fetch(new Request(input, init)),
              mailer: { send: async (message) => standInOf(ns).sendMail(message) },
            },
          }
        : env,
    );
  }

  /**
   * A Stripe test clock of this user's customer reached `at` (epoch ms): the renewal is decided at that time (never
   * before real time), so the paid months the clock reached are granted, as real time would grant them.
   */
  advanceClock(userId: string, at: number): Promise<LedgerResult<{ periodEnd: number | null }>> {
    return this.decideAt(userId, "renew", {}, at);
  }
}

/** `env` as the local Worker composes it for a request (tests that call services directly use it). */
export const withStandIns = (env: LocalEnv, origin: string, ctx: ExecutionContext): AppEnv => ({
  ...env,
  THIRD_PARTIES: standIns(env, origin, ctx),
});

/** The names this machine answers to from itself, with any port: `URL.hostname` spells IPv6 in brackets. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const refused = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

const local = {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    // DNS rebinding: a site whose name resolves to this machine reaches the local server under its own Host, and is
    // then same-origin to itself (it could read /dev/outbox, or post forms whose Origin matches). Locally we answer
    // loopback names only.
    if (!LOOPBACK_HOSTS.has(url.hostname))
      return refused(421, "This local server answers only at localhost, 127.0.0.1 or [::1].");
    if (isDevPath(url.pathname)) {
      // Every write under /dev/ comes from our own pages or from a client that is no browser: checked once here, so
      // each /dev/ route, today's and any added later, has it without asking.
      if (isForeignOriginWrite(request)) return refused(403, "This request came from another site and was refused.");
      if (!env.STAND_IN) return new Response("Not Found", { status: 404 });
      const stub = standInOf(env.STAND_IN);
      if (url.pathname === "/dev/users")
        return devUsersRoute(request, withStandIns(env, url.origin, ctx), {
          complete: (sessionId, cardNumber) => stub.completeCheckout(sessionId, cardNumber),
          deliverEvents: () => deliverEvents(env, url.origin, ctx),
        });
      return routeDev(request, env, ctx, stub, deliverEvents);
    }
    return app.fetch(request, env, ctx);
  },
  scheduled: (controller, env, ctx) => app.scheduled(controller, env, ctx),
} satisfies ExportedHandler<LocalEnv>;

export default local;
