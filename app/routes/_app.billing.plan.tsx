import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { BillingToggle, parseBilling } from "~/components/pricing/billing-toggle";
import { PlanCards } from "~/components/pricing/plan-cards";
import { useLive } from "~/components/realtime";
import { formatShortDate } from "~/domain/greeting";
import { effectivePlan, PLAN_IDS, PLANS } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";
import { busyHeaders, ledger } from "~/services/ledger.server";
import { readForm } from "~/utils/forms";

/** After a plan change the page returns to itself after this long (spec: 2000 ms). */
const REDIRECT_AFTER_MS = 2000;
const changeSchema = z.object({ plan: z.enum(PLAN_IDS) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return {
    billing: parseBilling(request.url),
    periodEnd: user.planPeriodEnd?.toISOString() ?? null,
    timeZone: user.timeZone ?? "UTC",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = changeSchema.safeParse(await readForm(request));
  if (!parsed.success)
    return data({ ok: false as const, message: "Failed to update plan: Unknown plan." }, { status: 400 });
  const result = await ledger(context.cloudflare.env, user.id).changePlan({ plan: parsed.data.plan });
  if (!result.ok)
    return data(
      { ok: false as const, message: `Failed to update plan: ${result.message}` },
      { status: result.status, headers: busyHeaders(result) },
    );
  const note =
    result.value.effective === "period_end" ? " It takes effect at the end of your current billing period." : "";
  return { ok: true as const, message: `Successfully changed plan to ${parsed.data.plan}!${note}` };
}

export default function PlanPage() {
  const { billing, periodEnd, timeZone } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
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
        {live.pendingPlan && (
          <p className="mt-2 text-sm text-amber-700">
            Changes to {live.pendingPlan} at the end of this period
            {periodEnd ? ` (${formatShortDate(periodEnd, timeZone)})` : ""}.
          </p>
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
      {result && (
        <p className={result.ok ? "alert-success" : "alert-error"} role={result.ok ? "status" : "alert"}>
          {result.message}
        </p>
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
