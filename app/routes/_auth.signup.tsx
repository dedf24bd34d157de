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
import { MESSAGES } from "~/domain/messages";
import { PASSWORD_MIN, passwordProblem } from "~/domain/password-policy";
import { joinPathAfterSignup } from "~/domain/teams";
import { createUser, findUserByEmail, isUniqueViolation, welcomeAccount } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { sendAlreadyRegisteredEmail, sendVerificationEmail } from "~/services/auth-emails.server";
import { AUTH_LIMITS } from "~/services/auth-limits.server";
import { getOptionalUser } from "~/services/auth.server";
import { hashPassword } from "~/services/password.server";
import { clientIp, hitRateLimit, retryMessage } from "~/services/rate-limit.server";
import { markSignupBrowser } from "~/services/signup-browser.server";
import { fieldErrors, readForm } from "~/utils/forms";

const signupSchema = z
  .object({
    fullName: z
      .string()
      .trim()
      .min(1, "Please enter your full name.")
      .max(100, "Name is too long (100 characters at most)."),
    email: z.string().trim().toLowerCase().email("Please enter a valid email address.").max(254),
    password: z.string(),
    confirmPassword: z.string(),
    // An invitation's path to come back to (app/domain/teams.ts decides which values count).
    next: z.string().max(200).optional(),
  })
  .superRefine((v, ctx) => {
    const problem = passwordProblem(v.password, { email: v.email });
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem, path: ["password"] });
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords do not match.", path: ["confirmPassword"] });

type Result =
  { status: "error"; error?: string; fieldErrors?: Record<string, string> } | { status: "ok"; message: string };

export { formPageHeaders as headers } from "~/services/cache.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getOptionalUser(request, context)) throw redirect("/dashboard");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const parsed = signupSchema.safeParse(await readForm(request));
  if (!parsed.success) {
    return data<Result>({ status: "error", fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const ip = clientIp(request);
  const limit = await hitRateLimit(env.DB, AUTH_LIMITS.signupPerIp, ip);
  if (!limit.ok) {
    return data<Result>(
      { status: "error", error: retryMessage(limit.retryAfterSeconds) },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  const { fullName, email, password, next } = parsed.data;
  // The password is kept with the confirmation link, not on the account: confirming applies the password of the
  // sign-up whose e-mail was opened, so nobody who signed up with someone else's address keeps a way in.
  const browser = await markSignupBrowser(request);
  const headers = { "Set-Cookie": browser.setCookie };
  const pending = { passwordHash: await hashPassword(password), browserHash: browser.browserHash };
  const existing = await findUserByEmail(db, email);
  if (existing) {
    // The spec's message; the owner gets an e-mail (a new confirmation link, or a note that they have an account).
    const mail = await hitRateLimit(env.DB, AUTH_LIMITS.verificationEmailPerAccount, existing.id);
    if (mail.ok) {
      if (existing.emailVerifiedAt) await sendAlreadyRegisteredEmail({ env, db }, request, existing);
      else await sendVerificationEmail({ env, db }, request, existing, pending, next);
    }
    return data<Result>({ status: "error", error: MESSAGES.alreadyRegistered }, { status: 409, headers });
  }
  try {
    const user = await welcomeAccount(
      env,
      await createUser(db, { email, fullName, passwordHash: null, verified: false }),
    );
    await audit(db, {
      action: "auth.signup",
      actorId: user.id,
      subjectId: user.id,
      ip,
      details: { method: "password" },
    });
    await sendVerificationEmail({ env, db }, request, user, pending, next);
  } catch (error) {
    if (isUniqueViolation(error))
      return data<Result>({ status: "error", error: MESSAGES.alreadyRegistered }, { status: 409 });
    console.error(JSON.stringify({ level: "error", msg: "signup failed", error: String(error) }));
    return data<Result>({ status: "error", error: MESSAGES.signupFailed }, { status: 500 });
  }
  return data<Result>({ status: "ok", message: MESSAGES.signupSuccess }, { headers });
}

export default function SignUp() {
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  const errors = result?.status === "error" ? (result.fieldErrors ?? {}) : {};
  // Arriving from a team invitation: come back to it once the account is confirmed.
  const [params] = useSearchParams();
  const next = joinPathAfterSignup(params.get("next"));
  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          Already have an account?{" "}
          <Link to="/signin" className="font-semibold text-brand-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      {result?.status === "ok" ? (
        <p className="alert-success" role="status">
          {result.message}
        </p>
      ) : (
        <>
          <GoogleButton label="Sign up with Google" redirectTo={next ?? undefined} />
          <Divider />
          <Form method="post" className="space-y-4" noValidate>
            <AuthError message={result?.status === "error" ? result.error : null} />
            {next && <input type="hidden" name="next" value={next} />}
            <Field name="fullName" label="Full name" autoComplete="name" required error={errors.fullName} />
            <Field
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              required
              defaultValue={params.get("email") ?? undefined}
              error={errors.email}
            />
            <PasswordField name="password" label="Password" autoComplete="new-password" error={errors.password} />
            <PasswordField
              name="confirmPassword"
              label="Confirm password"
              autoComplete="new-password"
              error={errors.confirmPassword}
            />
            <p className="text-xs text-slate-600">
              At least {PASSWORD_MIN} characters. Long passphrases are welcome. By signing up you agree to our{" "}
              <Link to="/terms" className="font-medium text-brand-700 underline">
                Terms of Service
              </Link>{" "}
              and{" "}
              <Link to="/privacy" className="font-medium text-brand-700 underline">
                Privacy Policy
              </Link>
              .
            </p>
            <button type="submit" className="btn-primary w-full" disabled={submitting}>
              {submitting ? "Creating account..." : "Sign up"}
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [
  { title: "Sign up | ClipCut" },
  { name: "description", content: "Create a free ClipCut account and get 100 credits to cut your first clips." },
];
