import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { customerIdOf, localObject, runningSubscription } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { requireUser } from "~/services/auth.server";
import { stripeFor } from "~/services/stripe.server";
import { failLocalRenewal, updateLocalCard } from "~/services/stripe-local.server";
import { deliverLocalEvents } from "~/services/stripe-webhook.server";
import { readForm } from "~/utils/forms";

/** Local mode only: the stand-in for Stripe's Customer Portal (replace the card; see a renewal fail). */
async function openPortal(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  if (env.APP_MODE !== "local" || !stripeFor(env, db).local) throw new Response("Not Found", { status: 404 });
  const user = await requireUser(request, context);
  const portal = id ? await localObject<{ customer: string; return_url: string }>(db, id) : null;
  if (!portal || portal.customer !== (await customerIdOf(db, user.id)))
    throw new Response("Not Found", { status: 404 });
  return { env, db, user, portal };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, user, portal } = await openPortal(request, context, params.id);
  return { returnUrl: portal.return_url, subscribed: Boolean(await runningSubscription(db, user.id)) };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("card"), cardNumber: z.string().max(40) }),
  z.object({ intent: z.literal("fail-renewal") }),
]);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { env, db, user, portal } = await openPortal(request, context, params.id);
  const parsed = actionSchema.safeParse(await readForm(request));
  if (!parsed.success) return data({ message: "Unknown action." }, { status: 400 });
  if (parsed.data.intent === "card") {
    const outcome = await updateLocalCard(db, portal.customer, parsed.data.cardNumber);
    if (!outcome.ok) return data({ message: outcome.message }, { status: 402 });
  } else {
    const running = await runningSubscription(db, user.id);
    if (!running || !(await failLocalRenewal(db, running.id)))
      return data({ message: "There is no subscription to renew." }, { status: 409 });
  }
  await deliverLocalEvents(env, new URL(request.url).origin);
  return redirect(portal.return_url);
}

export default function LocalPortal() {
  const { returnUrl, subscribed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-md space-y-6 px-4 py-12">
      <p className="text-xs font-semibold uppercase tracking-wide text-amber-700">Local mode · Stripe test portal</p>
      <h1 className="text-2xl font-bold tracking-tight">Manage billing</h1>
      {result && (
        <p className="alert-error" role="alert">
          {result.message}
        </p>
      )}
      <Form method="post" className="card space-y-4">
        <input type="hidden" name="intent" value="card" />
        <div>
          <label htmlFor="cardNumber" className="block text-sm font-medium">
            Card number
          </label>
          <input id="cardNumber" name="cardNumber" inputMode="numeric" required className="input mt-1 w-full" />
        </div>
        <button type="submit" className="btn-primary w-full">
          Save card
        </button>
      </Form>
      {subscribed && (
        <Form method="post" className="card space-y-2">
          <input type="hidden" name="intent" value="fail-renewal" />
          <p className="text-sm text-slate-600">Test only: the next renewal payment fails.</p>
          <button type="submit" className="btn-secondary w-full">
            Simulate a failed renewal
          </button>
        </Form>
      )}
      <a href={returnUrl} className="block text-center text-sm text-slate-600 underline">
        Return to ClipCut
      </a>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Billing portal (local test mode) | ClipCut" }];
