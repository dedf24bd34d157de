import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, AuthError } from "~/components/auth-ui";
import { Field } from "~/components/field";
import { getDb } from "~/db/client.server";
import { MESSAGES } from "~/domain/messages";
import { findUserByEmail, normalizeEmail } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { sendPasswordResetEmail } from "~/services/auth-emails.server";
import { AUTH_LIMITS } from "~/services/auth-limits.server";
import { clientIp, hitRateLimit, retryMessage } from "~/services/rate-limit.server";
import { readForm } from "~/utils/forms";

const schema = z.object({ email: z.string().trim().max(254).default("") });

export { formPageHeaders as headers } from "~/services/cache.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const parsed = schema.safeParse(await readForm(request));
  const email = parsed.success ? normalizeEmail(parsed.data.email) : "";
  if (!email) return data({ ok: false as const, error: MESSAGES.emptyEmail }, { status: 400 });
  const ip = clientIp(request);
  for (const [rule, subject] of [
    [AUTH_LIMITS.resetPerIp, ip],
    [AUTH_LIMITS.resetPerAccount, email],
  ] as const) {
    const limit = await hitRateLimit(env.DB, rule, subject);
    if (!limit.ok) {
      return data(
        { ok: false as const, error: retryMessage(limit.retryAfterSeconds) },
        { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
      );
    }
  }
  const user = await findUserByEmail(db, email);
  if (user && user.status !== "Banned") {
    // After the response: neither its timing nor a failing e-mail provider may tell whether the account exists.
    context.cloudflare.ctx.waitUntil(
      (async () => {
        await sendPasswordResetEmail({ env, db }, request, user);
        await audit(db, { action: "auth.password_reset_requested", subjectId: user.id, ip });
      })().catch((error: unknown) => {
        console.error(JSON.stringify({ level: "error", msg: "reset e-mail failed", error: String(error) }));
      }),
    );
  }
  // The same answer whether or not the account exists.
  return { ok: true as const, message: MESSAGES.resetSent };
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  return (
    <AuthCard title="Reset your password" subtitle="Enter the email address of your account and we'll send you a link.">
      {result?.ok ? (
        <p className="alert-success" role="status">
          {result.message}
        </p>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <AuthError message={result?.error} />
          <Field name="email" label="Email" type="email" autoComplete="email" />
          <button type="submit" className="btn-primary w-full" disabled={submitting}>
            {submitting ? "Sending..." : "Send reset instructions"}
          </button>
        </Form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/signin" className="font-semibold text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [
  { title: "Forgot password | ClipCut" },
  { name: "description", content: "Reset the password of your ClipCut account." },
];
