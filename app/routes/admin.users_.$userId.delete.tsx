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
import { AdminErrorBoundary } from "~/components/admin/error";
import { PageHeader } from "~/components/admin/ui";
import { PasswordField } from "~/components/password-field";
import { getDb } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { DELETION_MESSAGES, deletionConsequences, isErasedEmail } from "~/domain/account-deletion";
import { adminActionRefusal } from "~/domain/admin-rights";
import { deleteAccount, deletionFacts } from "~/services/account-deletion.server";
import { requireAdmin } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { isOwner, requireStepUp } from "~/services/step-up.server";
import { readForm } from "~/utils/forms";

const userIdSchema = z.string().uuid();
const schema = z.object({
  reason: z
    .string()
    .trim()
    .min(3, DELETION_MESSAGES.reasonNeeded)
    .max(200, "The reason is too long (200 characters at most)."),
  // The admin's own password (step-up), unless this session proved it in the last minutes.
  currentPassword: z.string().max(1024).optional(),
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const userId = userIdSchema.safeParse(params.userId);
  const user = userId.success ? await findUserById(db, userId.data) : undefined;
  if (!user) throw data("User not found.", { status: 404 });
  const deleted = isErasedEmail(user.email);
  return {
    user: { id: user.id, fullName: user.fullName, email: user.email, role: user.role },
    deleted,
    self: user.id === admin.id,
    consequences: deleted ? [] : deletionConsequences(await deletionFacts(db, user), { voice: "they" }),
  };
}

/** An admin deletes a user's account: a reason (in the audit log), the admin's step-up, and who may act on whom. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const userId = userIdSchema.safeParse(params.userId);
  const target = userId.success ? await findUserById(db, userId.data) : undefined;
  if (!target) return data({ message: "User not found." }, { status: 404 });
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) return data({ message: parsed.error.issues[0]?.message ?? "Invalid request." }, { status: 400 });
  if (target.id === admin.id) return data({ message: DELETION_MESSAGES.notYourself }, { status: 400 });
  const refusal = adminActionRefusal({ id: admin.id, owner: isOwner(env, admin) }, target, "delete");
  if (refusal) return data({ message: refusal }, { status: 403 });
  const stepUp = await requireStepUp(env, request, admin, parsed.data.currentPassword || undefined);
  if (!stepUp.ok) return data({ message: stepUp.message }, { status: stepUp.status });
  const result = await deleteAccount(env, db, {
    userId: target.id,
    actorId: admin.id,
    reason: parsed.data.reason,
    origin: new URL(request.url).origin,
    ip: clientIp(request),
  });
  if (!result.ok) return data({ message: result.message }, { status: result.status, headers: result.headers });
  return redirect("/admin/users?notice=deleted");
}

export default function AdminDeleteUser() {
  const { user, deleted, self, consequences } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="max-w-3xl">
      <PageHeader title={deleted ? "Deleted account" : `Delete ${user.fullName}'s account`} crumb="Users" />
      <p className="mb-6 text-sm text-slate-600">
        <span className="break-all">{user.email}</span> ·{" "}
        <Link to="/admin/users" className="text-brand-700 underline">
          Back to users
        </Link>
      </p>
      {deleted ? (
        <p role="status" className="card text-sm text-slate-700">
          {DELETION_MESSAGES.alreadyDeleted} Its invoices, payments and credit history are kept without a name or e-mail
          address; the audit log says who deleted it, when and why.
        </p>
      ) : self ? (
        <p role="status" className="card text-sm text-slate-700">
          {DELETION_MESSAGES.notYourself}{" "}
          <Link to="/account/delete" className="font-semibold text-brand-700 underline">
            Delete my account
          </Link>
        </p>
      ) : (
        <div className="space-y-6">
          <DeletionStatement consequences={consequences} title="What happens to this account" />
          <section className="card border-red-200" aria-labelledby="admin-delete-title">
            <h2 id="admin-delete-title" className="text-lg font-semibold">
              Delete the account
            </h2>
            <p className="mt-2 text-sm text-slate-600">
              The reason goes into the audit log with your name. The user gets a last e-mail saying that the account was
              deleted.
            </p>
            {answer && (
              <p role="alert" className="alert-error mt-4">
                {answer.message}
              </p>
            )}
            <Form method="post" className="mt-4 max-w-lg space-y-4">
              <div>
                <label htmlFor="reason" className="label">
                  Reason
                </label>
                <textarea
                  id="reason"
                  name="reason"
                  required
                  minLength={3}
                  maxLength={200}
                  rows={3}
                  className="input"
                  aria-describedby="reason-hint"
                />
                <p id="reason-hint" className="mt-1 text-xs text-slate-500">
                  For example: “Asked by e-mail on May 3 to delete the account.”
                </p>
              </div>
              <PasswordField name="currentPassword" label="Your password" autoComplete="current-password" />
              <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700" disabled={busy}>
                {busy ? "Deleting…" : "Delete this account"}
              </button>
            </Form>
          </section>
        </div>
      )}
    </div>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
export const meta: MetaFunction = () => [{ title: "Delete account | ClipCut Admin" }];
