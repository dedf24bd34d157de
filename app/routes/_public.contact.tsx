import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Faq } from "~/components/faq";
import { Field } from "~/components/field";
import { getDb } from "~/db/client.server";
import { CONTACT_FAQ } from "~/domain/faq";
import { CONTACT_TOPICS as TOPICS, contactSchema, PUBLIC_FORM_LIMITS } from "~/domain/inbox";
import { SITE } from "~/domain/site";
import { submitContactMessage } from "~/services/contact.server";
import { clientIp, hitRateLimits, rateLimitedFormResponse } from "~/services/rate-limit.server";
import { fieldErrors, readForm } from "~/utils/forms";

export { publicPageHeaders as headers } from "~/services/cache.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = contactSchema.safeParse(await readForm(request));
  if (!parsed.success) {
    return data({ ok: false as const, formError: null, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const { env } = context.cloudflare;
  // Per IP, then per address: one address written from many IPs would have us e-mail support (and later its owner).
  const limit = await hitRateLimits(env.DB, [
    [PUBLIC_FORM_LIMITS.contactPerIp, clientIp(request)],
    [PUBLIC_FORM_LIMITS.contactPerAddress, parsed.data.email],
  ]);
  if (!limit.ok) return rateLimitedFormResponse(limit.retryAfterSeconds);
  await submitContactMessage({ env, db: getDb(env.DB) }, new URL(request.url).origin, parsed.data);
  return { ok: true as const, name: parsed.data.name };
}

export default function Contact() {
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  const errors = result && !result.ok ? result.fieldErrors : {};
  return (
    <div className="container-page py-16">
      <header className="max-w-2xl">
        <h1 className="text-4xl font-bold tracking-tight">Contact us</h1>
        <p className="mt-4 text-lg text-slate-600">
          Questions, feedback or trouble with a clip? We reply within about {SITE.supportReplyHours} hours.
        </p>
      </header>
      <div className="mt-12 grid gap-10 lg:grid-cols-5">
        <aside className="space-y-6 lg:col-span-2" aria-label="Contact details">
          <div className="card">
            <h2 className="font-semibold">Support</h2>
            <a href={`mailto:${SITE.supportEmail}`} className="mt-1 block text-brand-700 hover:underline">
              {SITE.supportEmail}
            </a>
          </div>
          <div className="card">
            <h2 className="font-semibold">General inquiries</h2>
            <a href={`mailto:${SITE.generalEmail}`} className="mt-1 block text-brand-700 hover:underline">
              {SITE.generalEmail}
            </a>
          </div>
          <div className="card">
            <h2 className="font-semibold">Office</h2>
            <address className="mt-1 not-italic text-slate-600">{SITE.office}</address>
            <a href={`tel:${SITE.phone.replace(/[^+\d]/g, "")}`} className="mt-2 block text-brand-700 hover:underline">
              {SITE.phone}
            </a>
          </div>
        </aside>
        <section className="card lg:col-span-3" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title" className="text-xl font-semibold">
            Send us a message
          </h2>
          {result?.ok ? (
            <p className="alert-success mt-6" role="status">
              Thanks, {result.name}! Your message has been sent. We&apos;ll reply within about {SITE.supportReplyHours}{" "}
              hours.
            </p>
          ) : (
            <Form method="post" className="mt-6 space-y-5" noValidate>
              {result?.formError && (
                <p className="alert-error" role="alert">
                  {result.formError}
                </p>
              )}
              <div className="grid gap-5 sm:grid-cols-2">
                <Field name="name" label="Name" autoComplete="name" required error={errors.name} />
                <Field name="email" label="Email" type="email" autoComplete="email" required error={errors.email} />
              </div>
              <div>
                <label htmlFor="topic" className="label">
                  Topic
                </label>
                <select
                  id="topic"
                  name="topic"
                  className="input"
                  defaultValue={TOPICS[0]}
                  aria-invalid={errors.topic ? true : undefined}
                >
                  {TOPICS.map((topic) => (
                    <option key={topic}>{topic}</option>
                  ))}
                </select>
                {errors.topic && <p className="mt-1 text-sm text-red-700">{errors.topic}</p>}
              </div>
              <div>
                <label htmlFor="message" className="label">
                  Message
                </label>
                <textarea
                  id="message"
                  name="message"
                  rows={6}
                  required
                  className="input"
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={errors.message ? "message-error" : undefined}
                />
                {errors.message && (
                  <p id="message-error" className="mt-1 text-sm text-red-700">
                    {errors.message}
                  </p>
                )}
              </div>
              <button type="submit" className="btn-primary" disabled={submitting}>
                {submitting ? "Sending..." : "Send message"}
              </button>
            </Form>
          )}
        </section>
      </div>
      <section className="mt-16 max-w-3xl" aria-labelledby="contact-faq">
        <h2 id="contact-faq" className="mb-6 text-2xl font-bold">
          Frequently asked questions
        </h2>
        <Faq items={CONTACT_FAQ} firstOpen />
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Contact us | ClipCut" },
  { name: "description", content: "Get in touch with the ClipCut team. Support replies within about 24 hours." },
];
