import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { DeletionStatement } from "~/components/account/deletion-statement";
import { PasswordField } from "~/components/password-field";
import { getDb } from "~/db/client.server";
import { DELETE_CONFIRM_VALUE, DELETION_MESSAGES, deletionConsequences } from "~/domain/account-deletion";
import { signinWithNotice } from "~/domain/signin-messages";
import { deleteAccount, deletionFacts } from "~/services/account-deletion.server";
import { requireUser } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { clearSessionCookie } from "~/services/session-cookie.server";
import { requireStepUp } from "~/services/step-up.server";
import { readForm } from "~/utils/forms";

const schema = z.object({
  currentPassword: z.string().max(1024).default(""),
  confirm: z.literal(DELETE_CONFIRM_VALUE, { errorMap: () => ({ message: DELETION_MESSAGES.confirmNeeded }) }),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const facts = await deletionFacts(getDb(context.cloudflare.env.DB), user);
  return {
    email: user.email,
    hasPassword: user.passwordHash !== null,
    consequences: deletionConsequences(facts, { timeZone: user.timeZone ?? "UTC" }),
  };
}

/**
 * Deletes the signed-in person's account: the password every time (step-up, even right after another), and the
 * confirmation box. Then the session is gone: the cookie is cleared and /signin says what happened.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const { env } = context.cloudflare;
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success)
    return data({ message: parsed.error.issues[0]?.message ?? DELETION_MESSAGES.confirmNeeded }, { status: 400 });
  if (!user.passwordHash) return data({ message: DELETION_MESSAGES.noPassword }, { status: 400 });
  const stepUp = await requireStepUp(env, request, user, parsed.data.currentPassword || undefined, { always: true });
  if (!stepUp.ok) return data({ message: stepUp.message }, { status: stepUp.status });
  const url = new URL(request.url);
  const result = await deleteAccount(env, getDb(env.DB), {
    userId: user.id,
    actorId: user.id,
    reason: null,
    origin: url.origin,
    ip: clientIp(request),
  });
  if (!result.ok) return data({ message: result.message }, { status: result.status, headers: result.headers });
  return redirect(signinWithNotice("account_deleted"), { headers: { "Set-Cookie": clearSessionCookie(request) } });
}

export default function DeleteAccount() {
  const { email, hasPassword, consequences } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <Link to="/account" className="text-sm font-semibold text-brand-700 hover:underline">
          ← My Account
        </Link>
        <h1 className="mt-2 text-2xl font-bold tracking-tight">Delete my account</h1>
        <p className="mt-2 text-slate-600">
          This deletes the account <strong className="break-all text-slate-900">{email}</strong>. Here is what happens
          to it the moment you confirm.
        </p>
      </div>

      <DeletionStatement consequences={consequences} />

      <section className="card" aria-labelledby="copy-title">
        <h2 id="copy-title" className="text-lg font-semibold">
          Keep a copy first
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          Your clips, credit history and invoices as one file. After deletion it can no longer be downloaded.
        </p>
        <a href="/account/export" download className="btn-secondary mt-4">
          Download my data
        </a>
      </section>

      <section className="card border-red-200" aria-labelledby="confirm-title">
        <h2 id="confirm-title" className="text-lg font-semibold">
          Confirm with your password
        </h2>
        {answer && (
          <p role="alert" className="alert-error mt-4">
            {answer.message}
          </p>
        )}
        {hasPassword ? (
          <Form method="post" className="mt-4 max-w-lg space-y-4">
            <PasswordField name="currentPassword" label="Your password" autoComplete="current-password" />
            <div className="flex items-start gap-3">
              <input
                id="confirm"
                name="confirm"
                type="checkbox"
                value={DELETE_CONFIRM_VALUE}
                required
                className="mt-0.5 h-5 w-5 flex-none rounded border-slate-300 text-red-600 focus:ring-red-500"
              />
              <label htmlFor="confirm" className="text-sm text-slate-700">
                I understand that my account, my clips and my credits are deleted for good, and that this cannot be
                undone.
              </label>
            </div>
            <div className="flex flex-wrap gap-3">
              <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700" disabled={busy}>
                {busy ? "Deleting…" : "Delete my account"}
              </button>
              <Link to="/account" className="btn-secondary">
                Keep my account
              </Link>
            </div>
          </Form>
        ) : (
          <p className="mt-4 text-sm text-slate-700">
            {DELETION_MESSAGES.noPassword}{" "}
            <Link to="/account" className="font-semibold text-brand-700 underline">
              Go to my account
            </Link>
          </p>
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Delete my account | ClipCut" },
  { name: "description", content: "What deleting your ClipCut account does, and how to confirm it." },
];
