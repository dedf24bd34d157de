import {
  data,
  redirectDocument,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { BillingToggle, parseBilling } from "~/components/pricing/billing-toggle";
import { PlanCards } from "~/components/pricing/plan-cards";
import { useLive } from "~/components/realtime";
import { pendingUpgradeNotice, type PendingUpgrade } from "~/domain/billing";
import { formatShortDate } from "~/domain/greeting";
import { runningSubscription } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { effectivePlan, PLAN_IDS, PLANS, type PlanId } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";
import { changePlan, pendingUpgrade } from "~/services/billing.server";
import { busyHeaders } from "~/services/ledger.server";
import { BillingConfigError } from "~/services/stripe.server";
import { readForm } from "~/utils/forms";

/** After a plan change the page returns to itself after this long (spec: 2000 ms). */
const REDIRECT_AFTER_MS = 2000;
const changeSchema = z.object({
  plan: z.enum(PLAN_IDS),
  billing: z.enum(["monthly", "yearly"]).catch("monthly"),
});
const PERIOD_END_NOTE = " It takes effect at the end of your current billing period.";

/** A pending upgrade as the page shows it: what happened, what to do, and the link to do it. */
function pendingNotice(pending: PendingUpgrade, current: PlanId, timeZone: string) {
  const notice = pendingUpgradeNotice(pending, current, formatShortDate(pending.expiresAt, timeZone));
  return { ...notice, url: pending.invoiceUrl, declined: pending.reason === "declined" };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const paid = z.enum(PLAN_IDS).safeParse(url.searchParams.get("plan"));
  const db = getDb(context.cloudflare.env.DB);
  const subscription = await runningSubscription(db, user.id);
  const timeZone = user.timeZone ?? "UTC";
  const pending = subscription ? await pendingUpgrade(context.cloudflare.env, db, user.id) : null;
  return {
    billing: parseBilling(request.url),
    periodEnd: (subscription?.currentPeriodEnd ?? user.planPeriodEnd)?.toISOString() ?? null,
    next: subscription?.pendingPlan ?? null,
    interval: subscription?.interval ?? null,
    timeZone,
    pending: pending ? pendingNotice(pending, effectivePlan(user.plan), timeZone) : null,
    // Back from Checkout: the webhook applied the plan; the page says so as after any plan change.
    checkout:
      url.searchParams.get("checkout") === "success" && paid.success
        ? { ok: true as const, message: `Successfully changed plan to ${paid.data}!` }
        : url.searchParams.get("checkout") === "cancelled"
          ? { ok: false as const, message: "Checkout was cancelled. Your plan has not changed." }
          : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = changeSchema.safeParse(await readForm(request));
  if (!parsed.success)
    return data({ ok: false as const, message: "Failed to update plan: Unknown plan." }, { status: 400 });
  const { env } = context.cloudflare;
  const { plan: target, billing } = parsed.data;
  try {
    const outcome = await changePlan(env, getDb(env.DB), new URL(request.url).origin, user, target, billing);
    switch (outcome.kind) {
      case "checkout":
        // Checkout is another site's page (or the local stand-in's): a document navigation, not a client route.
        return redirectDocument(outcome.url);
      case "refused":
        return data(
          { ok: false as const, message: `Failed to update plan: ${outcome.message}` },
          { status: outcome.status, headers: busyHeaders({ ok: false, status: outcome.status }) },
        );
      case "pending": {
        // Nothing changed: the page says why and what to do (the same notice its loader shows).
        const notice = pendingNotice(outcome.pending, effectivePlan(user.plan), user.timeZone ?? "UTC");
        return data({ ok: false as const, message: `${notice.title} ${notice.detail}` }, { status: 402 });
      }
      case "unchanged":
        return { ok: true as const, message: `Successfully changed plan to ${target}!` };
      case "changed":
        // Asking for the plan in force drops a scheduled downgrade or cancellation ("Keep my plan").
        if (target === effectivePlan(user.plan) && outcome.effective === "now")
          return { ok: true as const, message: `You keep your ${target} plan: the scheduled change is cancelled.` };
        return {
          ok: true as const,
          message: `Successfully changed plan to ${target}!${outcome.effective === "period_end" ? PERIOD_END_NOTE : ""}`,
        };
    }
  } catch (error) {
    if (error instanceof BillingConfigError)
      return data({ ok: false as const, message: `Failed to update plan: ${error.message}` }, { status: 503 });
    console.error(JSON.stringify({ level: "error", msg: "plan change failed", error: String(error) }));
    return data(
      { ok: false as const, message: "Failed to update plan: the payment provider did not answer. Please try again." },
      { status: 502 },
    );
  }
}

export default function PlanPage() {
  const { billing, periodEnd, timeZone, checkout, next, interval, pending } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const result = actionData ?? checkout;
  const live = useLive();
  const navigate = useNavigate();
  const current = effectivePlan(live.plan);
  const plan = PLANS[current];

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => navigate("/billing/plan", { replace: true }), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold tracking-tight">Plan &amp; Pricing</h1>
      <section className="card" aria-labelledby="current-plan">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="current-plan" className="text-2xl font-bold" data-testid="plan-name">
            {plan.name}
          </h2>
          <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-700">
            Normal Mode
          </span>
        </div>
        <p className="mt-2 text-slate-600">
          {current === "Free"
            ? "Your current plan with one-time starter credits"
            : `Your current plan with ${plan.credits.toLocaleString("en-US")} credits per month${periodEnd ? `, renewing on ${formatShortDate(periodEnd, timeZone)}` : ""}`}
        </p>
        {interval && <p className="mt-1 text-sm text-slate-600">Billed {interval}.</p>}
        {(next ?? live.pendingPlan) && (
          <p className="mt-2 text-sm text-amber-700" data-testid="plan-next">
            Changes to {next ?? live.pendingPlan} at the end of this period
            {periodEnd ? ` (${formatShortDate(periodEnd, timeZone)})` : ""}.
          </p>
        )}
        {(next ?? live.pendingPlan) && current !== "Free" && (
          <Form method="post" className="mt-3">
            <input type="hidden" name="plan" value={current} />
            <input type="hidden" name="billing" value={interval ?? billing} />
            <button type="submit" className="btn-secondary" data-testid="keep-plan">
              Keep my plan
            </button>
          </Form>
        )}
        <div className="mt-5 flex flex-wrap gap-3">
          <Link to="/credits" className="btn-secondary">
            View Credits
          </Link>
          <Link to="/pricing" className="btn-secondary">
            View Upgrade Options
          </Link>
        </div>
      </section>
      {result && !(pending && !result.ok && actionData) && (
        <p className={result.ok ? "alert-success" : "alert-error"} role={result.ok ? "status" : "alert"}>
          {result.message}
        </p>
      )}
      {pending && (
        <section
          className="alert-error space-y-2"
          role="alert"
          aria-labelledby="pending-upgrade"
          data-testid="pending-upgrade"
        >
          <h2 id="pending-upgrade" className="font-semibold">
            {pending.title}
          </h2>
          <p>{pending.detail}</p>
          <p className="flex flex-wrap gap-3">
            {pending.declined && (
              <Link to="/billing" className="btn-secondary">
                Update your card
              </Link>
            )}
            {pending.url && (
              <a href={pending.url} className="btn-primary">
                {pending.action}
              </a>
            )}
          </p>
        </section>
      )}
      <section aria-labelledby="plans-title" className="space-y-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="plans-title" className="text-xl font-semibold">
            Change plan
          </h2>
          <BillingToggle billing={billing} />
        </div>
        <PlanCards billing={billing} currentPlan={current} />
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Plan & Pricing | ClipCut" },
  { name: "description", content: "Your plan and the options to change it." },
];
