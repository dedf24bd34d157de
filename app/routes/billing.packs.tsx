import { data, redirect, redirectDocument, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { CREDIT_PACKS } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";
import { packCheckoutUrl } from "~/services/billing.server";
import { readForm } from "~/utils/forms";

const packSchema = z.object({ pack: z.enum(CREDIT_PACKS.map((p) => p.id) as [string, ...string[]]) });

/** "Buy credits": a one-time Stripe Checkout (mode payment); the credits come with Stripe's event. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = packSchema.safeParse(await readForm(request));
  if (!parsed.success) return data({ message: "Unknown credit pack." }, { status: 400 });
  const { env } = context.cloudflare;
  try {
    const url = await packCheckoutUrl(env, getDb(env.DB), new URL(request.url).origin, user, parsed.data.pack);
    if (!url) return data({ message: "Unknown credit pack." }, { status: 400 });
    return redirectDocument(url);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "pack checkout failed", error: String(error) }));
    return data({ message: "The payment could not be started. Please try again." }, { status: 502 });
  }
}

export const loader = () => redirect("/credits");
