import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { customerIdOf } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { creditPack, formatCents, planOfLookupKey, PLANS } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";
import { stripeFor } from "~/services/stripe.server";
import { completeLocalCheckout, localCheckoutSession } from "~/services/stripe-local.server";
import { deliverLocalEvents } from "~/services/stripe-webhook.server";
import { readForm } from "~/utils/forms";

/**
 * Local mode only: the stand-in for Stripe's hosted Checkout. A 404 in production and whenever a Stripe key is set.
 * Paying sends the events Stripe would send, signed, to /webhooks/stripe, before returning to the success page.
 */
async function openSession(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  if (env.APP_MODE !== "local" || !stripeFor(env, db).local) throw new Response("Not Found", { status: 404 });
  const user = await requireUser(request, context);
  const session = id ? await localCheckoutSession(db, id) : null;
  if (!session || session.customer !== (await customerIdOf(db, user.id)))
    throw new Response("Not Found", { status: 404 });
  return { env, db, session };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session } = await openSession(request, context, params.id);
  const lookupKey = String(session.price).replace(/^price_/, "");
  const plan = planOfLookupKey(lookupKey);
  const pack = creditPack(lookupKey);
  return {
    title: plan
      ? `ClipCut ${PLANS[plan.plan].name} plan, billed ${plan.billing}`
      : `ClipCut credit pack: ${pack?.name ?? lookupKey}`,
    amount: formatCents(Number(session.amount_total)),
    subscription: session.mode === "subscription",
    open: session.status === "open",
    cancelUrl: String(session.cancel_url),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { env, db, session } = await openSession(request, context, params.id);
  const form = await readForm(request);
  const outcome = await completeLocalCheckout(db, session.id, form.cardNumber ?? "");
  if (!outcome.ok) return data({ message: outcome.message }, { status: 402 });
  await deliverLocalEvents(env, new URL(request.url).origin);
  return redirect(String(session.success_url));
}

export default function LocalCheckout() {
  const { title, amount, subscription, open, cancelUrl } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <p className="text-xs font-semibold uppercase tracking-wide text-amber-700">Local mode · Stripe test checkout</p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-3xl font-bold" data-testid="checkout-amount">
        {amount}
      </p>
      {!open ? (
        <p className="alert-error mt-6" role="alert">
          This checkout is no longer open.
        </p>
      ) : (
        <Form method="post" className="card mt-6 space-y-4">
          <div>
            <label htmlFor="cardNumber" className="block text-sm font-medium">
              Card number
            </label>
            <input
              id="cardNumber"
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="4242 4242 4242 4242"
              required
              className="input mt-1 w-full"
              aria-describedby={result ? "card-error" : "card-help"}
              aria-invalid={result ? true : undefined}
            />
            <p id="card-help" className="mt-1 text-xs text-slate-500">
              Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.
            </p>
          </div>
          {result && (
            <p id="card-error" className="alert-error" role="alert">
              {result.message}
            </p>
          )}
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {subscription ? "Pay and subscribe" : "Pay"}
          </button>
          <a href={cancelUrl} className="block text-center text-sm text-slate-600 underline">
            Cancel and return to ClipCut
          </a>
        </Form>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Checkout (local test mode) | ClipCut" }];
