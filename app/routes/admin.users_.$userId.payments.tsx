import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { AdminErrorBoundary } from "~/components/admin/error";
import { ListTable, Td } from "~/components/list";
import { formatDateTime, PageHeader } from "~/components/admin/ui";
import { findUser } from "~/db/admin.server";
import { paymentsOf } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { formatShortDate } from "~/domain/greeting";
import { formatCents, REFUND_WINDOW_MS } from "~/domain/plans";
import { audit } from "~/services/audit.server";
import { requireAdmin } from "~/services/auth.server";
import { refundPayment } from "~/services/billing.server";
import { clientIp } from "~/services/rate-limit.server";
import { requireStepUp } from "~/services/step-up.server";
import { readForm } from "~/utils/forms";

const userIdSchema = z.string().uuid();
const refundSchema = z.object({
  paymentId: z.string().min(1).max(100),
  reason: z.string().trim().min(3, "Give a reason of at least 3 characters.").max(200),
  // The admin's own password (step-up): money leaves the business, so a stolen admin cookie alone cannot send it.
  currentPassword: z.string().max(1024).optional(),
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const userId = userIdSchema.safeParse(params.userId);
  const user = userId.success ? await findUser(db, userId.data) : undefined;
  if (!user || !userId.success) throw data("User not found.", { status: 404 });
  const now = Date.now();
  const payments = await paymentsOf(db, userId.data, 200);
  return {
    user: { id: user.id, fullName: user.fullName, email: user.email },
    payments: payments.map((p) => ({
      id: p.id,
      number: p.number ?? p.id,
      description: p.description,
      amount: formatCents(p.amountCents),
      refunded: p.refundedCents > 0 ? formatCents(p.refundedCents) : null,
      refundedAt: p.refundedCents > 0 && p.refundedAt ? p.refundedAt.toISOString() : null,
      status: p.status,
      paidAt: p.paidAt?.toISOString() ?? null,
      refundable:
        p.paidAt !== null &&
        (p.status === "paid" || p.status === "partially_refunded") &&
        now - p.paidAt.getTime() <= REFUND_WINDOW_MS,
    })),
  };
}

/** Money-back guarantee: a refund through Stripe of the unspent share only; its credits go with Stripe's event. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const userId = userIdSchema.safeParse(params.userId);
  const parsed = refundSchema.safeParse(await readForm(request));
  if (!userId.success) return data({ ok: false as const, message: "User not found." }, { status: 404 });
  if (!parsed.success)
    return data(
      { ok: false as const, message: parsed.error.issues[0]?.message ?? "Invalid request." },
      { status: 400 },
    );
  const stepUp = await requireStepUp(env, request, admin, parsed.data.currentPassword || undefined);
  if (!stepUp.ok) return data({ ok: false as const, message: stepUp.message }, { status: stepUp.status });
  let refunded: { cents: number; unspentCredits: number; spentCredits: number };
  try {
    const result = await refundPayment(env, db, new URL(request.url).origin, {
      userId: userId.data,
      paymentId: parsed.data.paymentId,
      actorId: admin.id,
      reason: parsed.data.reason,
    });
    if (!result.ok) return data({ ok: false as const, message: result.message }, { status: result.status });
    refunded = result;
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "refund failed", error: String(error) }));
    return data({ ok: false as const, message: "Stripe did not accept the refund. Nothing changed." }, { status: 502 });
  }
  await audit(db, {
    action: "admin.payment_refunded",
    actorId: admin.id,
    subjectId: userId.data,
    ip: clientIp(request),
    details: { paymentId: parsed.data.paymentId, reason: parsed.data.reason, cents: refunded.cents },
  });
  const spent =
    refunded.spentCredits > 0
      ? ` ${refunded.spentCredits.toLocaleString("en-US")} credits of it were already spent and are not refunded.`
      : "";
  return {
    ok: true as const,
    message: `Refund of ${formatCents(refunded.cents)} sent to Stripe for ${refunded.unspentCredits.toLocaleString("en-US")} unspent credits; they are taken back as Stripe confirms it.${spent}`,
  };
}

/** "Refunded $6.00 on Nov 21, 2026": what has gone back so far, partial refunds too (no date if none was recorded). */
const refundedText = (p: { refunded: string | null; refundedAt: string | null }) =>
  `Refunded ${p.refunded}${p.refundedAt ? ` on ${formatShortDate(p.refundedAt)}` : ""}`;

export default function AdminUserPayments() {
  const { user, payments } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // The live feed refreshes the page as Stripe's refund events land, which drops the action's answer: the answer is
  // kept here until the admin dismisses it (or sends another).
  const [result, setResult] = useState(answer);
  useEffect(() => {
    if (answer) setResult(answer);
  }, [answer]);
  const { pathname } = useLocation();
  const busy = useNavigation().state !== "idle";
  return (
    <div>
      <PageHeader title={`Payments of ${user.fullName}`} crumb="Users" />
      <p className="mb-4 text-sm text-slate-600">
        {user.email} ·{" "}
        <Link to={`/admin/users?q=${encodeURIComponent(user.email)}`} className="text-brand-700 underline">
          Back to users
        </Link>
      </p>
      {result && (
        <div
          className={`${result.ok ? "alert-success" : "alert-error"} mb-4 flex items-start justify-between gap-4`}
          role={result.ok ? "status" : "alert"}
        >
          <p>{result.message}</p>
          {/* Without JavaScript, the page again without the answer; with it, the answer goes and nothing reloads. */}
          <Link
            to={pathname}
            className="shrink-0 text-sm font-semibold underline"
            onClick={(event) => {
              event.preventDefault();
              setResult(undefined);
            }}
          >
            Dismiss
          </Link>
        </div>
      )}
      <p id="refund-password-help" className="mb-2 text-xs text-slate-600">
        A refund needs your password, once every 10 minutes.
      </p>
      <ListTable
        caption="Payments"
        columns={["Invoice", "Paid", "Amount", "Status", "Refund"]}
        isEmpty={payments.length === 0}
        empty="No payments."
      >
        {payments.map((p) => (
          <tr key={p.id} data-testid="payment-row">
            <Td>
              <span className="font-medium">{p.number}</span>
              <span className="block text-xs text-slate-500">{p.description}</span>
            </Td>
            <Td>{p.paidAt ? formatDateTime(p.paidAt) : "—"}</Td>
            <Td className="tabular-nums">{p.amount}</Td>
            <Td>{p.status.replace("_", " ")}</Td>
            <Td>
              {p.refunded && <span className="mb-1 block text-xs text-slate-700">{refundedText(p)}</span>}
              {p.refundable ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="paymentId" value={p.id} />
                  <label className="text-xs">
                    Reason
                    <input name="reason" required minLength={3} maxLength={200} className="input mt-1 block w-44" />
                  </label>
                  <label className="text-xs">
                    Your password
                    <input
                      name="currentPassword"
                      type="password"
                      autoComplete="current-password"
                      maxLength={1024}
                      aria-describedby="refund-password-help"
                      className="input mt-1 block w-36"
                    />
                  </label>
                  <button type="submit" className="btn-secondary" disabled={busy}>
                    Refund<span className="sr-only"> {p.number}</span>
                  </button>
                </Form>
              ) : p.refunded ? null : (
                <span className="text-xs text-slate-500">{p.paidAt ? "Outside the 14-day guarantee" : "Not paid"}</span>
              )}
            </Td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
export const meta: MetaFunction = () => [{ title: "Payments | ClipCut Admin" }];
