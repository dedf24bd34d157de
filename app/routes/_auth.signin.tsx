import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, AuthError, Divider, GoogleButton } from "~/components/auth-ui";
import { Field } from "~/components/field";
import { PasswordField } from "~/components/password-field";
import { getDb } from "~/db/client.server";
import { checkPassword, normalizeEmail } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { sendVerificationEmail } from "~/services/auth-emails.server";
import { AUTH_LIMITS } from "~/services/auth-limits.server";
import { getOptionalUser } from "~/services/auth.server";
import { deviceHashOf } from "~/services/device-cookie.server";
import { beginPasswordAttempt } from "~/services/password-attempts.server";
import { clientIp, hitRateLimit, retryMessage } from "~/services/rate-limit.server";
import { markSignupBrowser } from "~/services/signup-browser.server";
import { createUserSession, safeRedirect } from "~/services/session.server";
import { MESSAGES } from "~/domain/messages";
import { SIGNIN_ERRORS, signinErrorText, signinNoticeText } from "~/domain/signin-messages";
import { readForm } from "~/utils/forms";

const signinSchema = z.object({
  email: z.string().trim().max(254).default(""),
  password: z.string().max(1024).default(""),
  // Any value is accepted here and judged by safeRedirect, which falls back to /dashboard.
  redirectTo: z.string().optional(),
});

export { formPageHeaders as headers } from "~/services/cache.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getOptionalUser(request, context)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo")));
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const parsed = signinSchema.safeParse(await readForm(request));
  if (!parsed.success || !parsed.data.email || !parsed.data.password) {
    return data({ error: "Please enter your email and password." }, { status: 400 });
  }
  const { password, redirectTo } = parsed.data;
  const email = normalizeEmail(parsed.data.email);
  const ip = clientIp(request);

  // Counted before the password is checked, so parallel guesses cannot outrun the limit.
  const attempt = await beginPasswordAttempt(env.DB, { ip, account: email, deviceHash: await deviceHashOf(request) });
  if (!attempt.ok) {
    return data(
      { error: retryMessage(attempt.retryAfterSeconds) },
      { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
    );
  }
  const result = await checkPassword(db, email, password);
  if (!result.ok && result.reason === "invalid") {
    await audit(db, { action: "auth.signin_failed", ip, details: { email } });
    return data({ error: MESSAGES.invalidCredentials }, { status: 400 });
  }
  await attempt.succeeded();
  if (!result.ok && result.reason === "banned") {
    await audit(db, { action: "auth.banned_signin_refused", subjectId: result.user.id, ip });
    return data({ error: SIGNIN_ERRORS.banned }, { status: 403 });
  }
  if (!result.ok) {
    // Right password, address not confirmed yet: send a fresh link (rate limited) for this browser and say so.
    const browser = await markSignupBrowser(request);
    const limit = await hitRateLimit(env.DB, AUTH_LIMITS.verificationEmailPerAccount, result.user.id);
    if (limit.ok) {
      await sendVerificationEmail({ env, db }, request, result.user, {
        passwordHash: result.passwordHash,
        browserHash: browser.browserHash,
      });
    }
    return data(
      { error: "Email not confirmed. We have sent you a new confirmation link — please check your inbox." },
      { status: 403, headers: { "Set-Cookie": browser.setCookie } },
    );
  }
  await audit(db, { action: "auth.signin", actorId: result.user.id, subjectId: result.user.id, ip });
  throw await createUserSession(context.cloudflare.env, request, result.user.id, safeRedirect(redirectTo));
}

export default function SignIn() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? undefined;
  // Codes only, mapped to fixed messages: text from the link is never shown.
  const oauthError = signinErrorText(params.get("error"));
  const notice = signinNoticeText(params.get("notice"));
  const submitting = useNavigation().state === "submitting";
  return (
    <AuthCard
      title="Sign in to ClipCut"
      subtitle={
        <>
          New here?{" "}
          <Link to="/signup" className="font-semibold text-brand-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      {notice && (
        <p className="alert-success mb-4" role="status">
          {notice}
        </p>
      )}
      <GoogleButton redirectTo={redirectTo} />
      <Divider />
      <Form method="post" className="space-y-4">
        <AuthError message={result?.error ?? oauthError} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <Field name="email" label="Email" type="email" autoComplete="email" required />
        <PasswordField name="password" label="Password" autoComplete="current-password" />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "Signing in..." : "Sign in"}
        </button>
      </Form>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [
  { title: "Sign in | ClipCut" },
  { name: "description", content: "Sign in to your ClipCut account to manage your clips, credits and plan." },
];
