import { joinPathAfterSignup } from "~/domain/teams";
import { signinWithNotice } from "~/domain/signin-messages";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, AuthError } from "~/components/auth-ui";
import { PasswordField } from "~/components/password-field";
import { getDb } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { confirmEmail } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { consumeEmailToken, findEmailToken } from "~/services/email-tokens.server";
import { beginPasswordAttempt } from "~/services/password-attempts.server";
import { verifyPassword } from "~/services/password.server";
import { clientIp, retryMessage } from "~/services/rate-limit.server";
import { createUserSession } from "~/services/session.server";
import { clearSignupBrowser, isSignupBrowser } from "~/services/signup-browser.server";
import { readForm } from "~/utils/forms";

const INVALID_LINK = "This confirmation link is invalid or has expired. Sign in to get a new one.";
const WRONG_PASSWORD = "That is not the password chosen when this account was created. Please try again.";

const schema = z.object({ password: z.string().max(1024).optional() });

export { formPageHeaders as headers } from "~/services/cache.server";

/**
 * The link in the confirmation e-mail only shows a page: opening it (a person, or a mail scanner) changes nothing.
 * Confirming is a POST from this page. The browser that signed up is signed in at once; any other browser must
 * give the password chosen at that sign-up, so nobody is signed in to an account that is not theirs (login CSRF).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const row = await findEmailToken(getDb(context.cloudflare.env.DB), params.token ?? "", "verify");
  if (!row) return { valid: false as const };
  const sameBrowser = await isSignupBrowser(request, row.browserHash);
  return { valid: true as const, needsPassword: !sameBrowser && row.passwordHash !== null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const token = params.token ?? "";
  const parsed = schema.safeParse(await readForm(request));
  const password = parsed.success ? (parsed.data.password ?? "") : "";
  const row = await findEmailToken(db, token, "verify");
  if (!row) return data({ error: INVALID_LINK }, { status: 400 });
  const sameBrowser = await isSignupBrowser(request, row.browserHash);
  const ip = clientIp(request);
  if (!sameBrowser && row.passwordHash) {
    if (!password) return data({ error: "Please enter your password to confirm." }, { status: 400 });
    const user = await findUserById(db, row.userId);
    const attempt = await beginPasswordAttempt(env.DB, { ip, account: user?.email ?? row.userId });
    if (!attempt.ok) {
      return data(
        { error: retryMessage(attempt.retryAfterSeconds) },
        { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
      );
    }
    if (!(await verifyPassword(password, row.passwordHash))) return data({ error: WRONG_PASSWORD }, { status: 400 });
    await attempt.succeeded();
  }
  // Used up atomically: of two concurrent confirmations only one goes on.
  const used = await consumeEmailToken(db, token, "verify");
  if (!used) return data({ error: INVALID_LINK }, { status: 400 });
  const confirmed = await confirmEmail(db, used.userId, used.passwordHash);
  if (!confirmed) {
    throw redirect(signinWithNotice("already_confirmed"));
  }
  await audit(db, { action: "auth.email_verified", actorId: used.userId, subjectId: used.userId, ip });
  const user = await findUserById(db, used.userId);
  if (!used.passwordHash || !user || user.status === "Banned") {
    // An old link without a password: the address is confirmed, and the owner sets a password by reset or Google.
    throw redirect(signinWithNotice("confirmed_no_password"));
  }
  // A sign-up that started from a team invitation goes back to it.
  const next = joinPathAfterSignup(new URL(request.url).searchParams.get("next")) ?? "/dashboard";
  throw await createUserSession(context.cloudflare.env, request, used.userId, next, [clearSignupBrowser(request)]);
}

export default function VerifyEmail() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  if (!page.valid) {
    return (
      <AuthCard title="Confirm your e-mail">
        <div className="space-y-4">
          <AuthError message={INVALID_LINK} />
          <Link to="/signin" className="btn-primary w-full">
            Go to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Confirm your e-mail"
      subtitle={
        page.needsPassword
          ? "You are confirming on another browser or device. Enter the password you chose when you signed up."
          : "One last step: confirm your address to start clipping."
      }
    >
      {/* A full page load after confirming: the new session starts with a fresh document. */}
      <Form method="post" className="space-y-4" reloadDocument>
        <AuthError message={result?.error} />
        {page.needsPassword && <PasswordField name="password" label="Password" autoComplete="current-password" />}
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "Confirming..." : "Confirm my e-mail"}
        </button>
      </Form>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [
  { title: "Confirm your e-mail | ClipCut" },
  { name: "robots", content: "noindex" },
];
