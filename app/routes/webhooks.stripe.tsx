import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { handleStripeWebhook } from "~/services/stripe-webhook.server";

/** Stripe's deliveries (docs/payments.md). The raw body is read by the handler: the signature covers it. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405 });
  return handleStripeWebhook(request, context.cloudflare.env);
}

export async function loader() {
  return Response.json({ error: "Stripe posts events here." }, { status: 405 });
}
