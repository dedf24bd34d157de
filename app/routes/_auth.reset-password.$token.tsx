import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, AuthError } from "~/components/auth-ui";
import { PasswordField } from "~/components/password-field";
import { getDb } from "~/db/client.server";
import { passwordProblem } from "~/domain/password-policy";
import { markEmailVerified, setPassword } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { consumeEmailToken, peekEmailToken } from "~/services/email-tokens.server";
import { clientIp } from "~/services/rate-limit.server";
import { createUserSession } from "~/services/session.server";
import { fieldErrors, readForm } from "~/utils/forms";

const INVALID_LINK = "This password reset link is invalid or has expired. Please request a new one.";

const schema = z
  .object({
    password: z.string().superRefine((value, ctx) => {
      const problem = passwordProblem(value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    }),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords do not match.", path: ["confirmPassword"] });

export { formPageHeaders as headers } from "~/services/cache.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const userId = await peekEmailToken(getDb(context.cloudflare.env.DB), params.token ?? "", "reset");
  return { valid: userId !== null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const db = getDb(context.cloudflare.env.DB);
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) return data({ error: null, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  // Used up atomically: a second use of the same link finds nothing.
  const userId = (await consumeEmailToken(db, params.token ?? "", "reset"))?.userId;
  if (!userId) return data({ error: INVALID_LINK, fieldErrors: {} }, { status: 400 });
  await setPassword(context.cloudflare.env, userId, parsed.data.password);
  await markEmailVerified(db, userId); // the link proved the address
  await audit(db, { action: "auth.password_reset", actorId: userId, subjectId: userId, ip: clientIp(request) });
  throw await createUserSession(context.cloudflare.env, request, userId, "/dashboard");
}

export default function ResetPassword() {
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = result?.fieldErrors ?? {};
  return (
    <AuthCard title="Choose a new password">
      {valid ? (
        <Form method="post" className="space-y-4" noValidate>
          <AuthError message={result?.error} />
          <PasswordField name="password" label="New password" autoComplete="new-password" error={errors.password} />
          <PasswordField
            name="confirmPassword"
            label="Confirm new password"
            autoComplete="new-password"
            error={errors.confirmPassword}
          />
          <button type="submit" className="btn-primary w-full" disabled={submitting}>
            {submitting ? "Saving..." : "Set new password"}
          </button>
        </Form>
      ) : (
        <div className="space-y-4">
          <AuthError message={INVALID_LINK} />
          <Link to="/forgot-password" className="btn-primary w-full">
            Request a new link
          </Link>
        </div>
      )}
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [
  { title: "Choose a new password | ClipCut" },
  { name: "description", content: "Set a new password for your ClipCut account." },
];
