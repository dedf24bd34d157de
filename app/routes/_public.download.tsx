import {
  data,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { BrowserCards } from "~/components/marketing/download/browser-cards";
import { FreePlan } from "~/components/marketing/download/free-plan";
import { InstallSteps } from "~/components/marketing/download/install-steps";
import { TryLocally } from "~/components/marketing/download/try-locally";
import type { NotifyResult } from "~/components/marketing/download/notify-form";
import { PageHero } from "~/components/marketing/page-hero";
import { SectionHeading } from "~/components/marketing/section-heading";
import { storeListings } from "~/domain/extension";
import { PUBLIC_FORM_LIMITS } from "~/domain/inbox";

import { addNotifyRequest } from "~/services/notify.server";
import { clientIp, hitRateLimit, rateLimitedFormResponse } from "~/services/rate-limit.server";
import { readForm } from "~/utils/forms";

const NotifySchema = z.object({
  email: z
    .string({
      required_error: "Please enter your email address.",
      invalid_type_error: "Please enter your email address.",
    })
    .trim()
    .min(1, "Please enter your email address.")
    .max(254, "That email address is too long.")
    .email("Please enter a valid email address."),
});

const NOTIFY_CONFIRMATION = "Thanks! We'll email you when ClipCut for Safari is ready.";

export async function loader({ context }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  // Local mode has no store listing for the local build: the buttons lead to the instructions instead.
  if (env.APP_MODE === "local") return { links: { local: true as const } };
  return {
    links: {
      local: false as const,
      stores: storeListings({
        chrome: env.EXTENSION_STORE_CHROME,
        firefox: env.EXTENSION_STORE_FIREFOX,
        edge: env.EXTENSION_STORE_EDGE,
      }),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { DB } = context.cloudflare.env;
  const limit = await hitRateLimit(DB, PUBLIC_FORM_LIMITS.notifyPerIp, clientIp(request));
  if (!limit.ok) return rateLimitedFormResponse(limit.retryAfterSeconds);

  const form = await readForm(request);
  const parsed = NotifySchema.safeParse({ email: form.email ?? "" });
  if (!parsed.success) {
    const fieldErrors = { email: parsed.error.flatten().fieldErrors.email?.[0] };
    return data<NotifyResult>({ ok: false, fieldErrors }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  // And per address: one address signed up from many IPs.
  const perAddress = await hitRateLimit(DB, PUBLIC_FORM_LIMITS.notifyPerAddress, parsed.data.email.toLowerCase());
  if (!perAddress.ok) return rateLimitedFormResponse(perAddress.retryAfterSeconds);

  try {
    // A repeated address is fine: the same confirmation, still one row.
    await addNotifyRequest(DB, parsed.data.email, "safari");
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "notify insert failed", error: String(error) }));
    return data<NotifyResult>(
      { ok: false, formError: "Something went wrong on our side. Please try again in a moment.", fieldErrors: {} },
      { status: 500, headers: { "Cache-Control": "no-store" } },
    );
  }
  return data<NotifyResult>({ ok: true, message: NOTIFY_CONFIRMATION }, { headers: { "Cache-Control": "no-store" } });
}

export default function Download() {
  const { links } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero
        eyebrow="Download"
        title="Get ClipCut for your browser"
        lead="Install the free extension, sign in, and cut your first clip in under a minute."
      />

      <section aria-labelledby="browsers-heading" className="container-page py-14 sm:py-20">
        <SectionHeading id="browsers-heading" title="Choose your browser">
          Chrome gives you the smoothest experience. Firefox and Edge work great too.
        </SectionHeading>
        <BrowserCards links={links} />
      </section>

      {links.local && <TryLocally />}

      <section aria-labelledby="install-heading" className="bg-slate-50 py-14 sm:py-20">
        <div className="container-page">
          <SectionHeading id="install-heading" eyebrow="Install in 3 steps" title="Up and running in a minute" />
          <div className="mt-10">
            <InstallSteps />
          </div>
        </div>
      </section>

      <section aria-labelledby="free-heading" className="container-page py-14 sm:py-20">
        <SectionHeading id="free-heading" eyebrow="Free plan" title="Start free, upgrade when you need to">
          Every new account starts on the Free plan. Here is what you get.
        </SectionHeading>
        <div className="mx-auto mt-10 max-w-4xl">
          <FreePlan />
        </div>
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Download the Browser Extension | ClipCut" },
  {
    name: "description",
    content:
      "Install ClipCut for Chrome, Firefox or Edge and start clipping with 100 free credits. Safari is coming soon: get notified when it launches.",
  },
];

// Action answers are personal: never cache them, and pass Retry-After through on 429.
export const headers: HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  if (retryAfter || actionHeaders.get("Cache-Control")) headers.set("Cache-Control", "private, no-store");
  return headers;
};
