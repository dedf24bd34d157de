import { Form, Link, useNavigation } from "@remix-run/react";
import { MOST_POPULAR_PLAN, PLAN_LIST, planButton, planPrice, type Billing, type PlanId } from "~/domain/plans";

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 h-4 w-4 flex-none text-brand-600" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

/**
 * The four plan cards. Signed out, buttons lead to /signup; signed in, they post a plan change (plan and billing
 * period) to /billing/plan, which applies the rules on the server (Stripe Checkout for a new paid plan).
 */
export function PlanCards({ billing, currentPlan }: { billing: Billing; currentPlan: PlanId | null }) {
  const navigation = useNavigation();
  const pendingPlan = navigation.formAction === "/billing/plan" ? navigation.formData?.get("plan") : null;
  return (
    <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
      {PLAN_LIST.map((plan) => {
        const popular = plan.id === MOST_POPULAR_PLAN;
        const button = planButton(plan.id, currentPlan);
        const price = planPrice(plan.id, billing);
        return (
          <article
            key={plan.id}
            aria-labelledby={`plan-${plan.id}`}
            className={`relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm ${
              popular ? "border-brand-600 ring-2 ring-brand-600" : "border-slate-200"
            }`}
          >
            {popular && (
              <p className="absolute -top-3 left-1/2 -translate-x-1/2 whitespace-nowrap rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
                Most Popular
              </p>
            )}
            <h3 id={`plan-${plan.id}`} className="text-lg font-semibold">
              {plan.name}
            </h3>
            <p className="mt-1 text-sm text-slate-600">{plan.tagline}</p>
            <p className="mt-5 flex items-baseline gap-1">
              <span className="text-4xl font-bold tracking-tight">{`$${price}`}</span>
              <span className="text-sm text-slate-600">/month</span>
            </p>
            <p className="mt-1 h-5 text-xs text-slate-500">
              {price > 0 ? (billing === "yearly" ? `$${price * 12} billed yearly` : "billed monthly") : "free forever"}
            </p>
            <ul className="mt-6 flex-1 space-y-2.5 text-sm text-slate-700">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <CheckIcon />
                  {feature}
                </li>
              ))}
            </ul>
            <div className="mt-8">
              {button.kind === "signup" ? (
                <Link to="/signup" className={`w-full ${popular ? "btn-primary" : "btn-secondary"}`}>
                  {button.label}
                </Link>
              ) : button.kind === "current" ? (
                <button type="button" disabled className="btn-secondary w-full">
                  {button.label}
                </button>
              ) : (
                <Form method="post" action="/billing/plan">
                  <input type="hidden" name="plan" value={plan.id} />
                  <input type="hidden" name="billing" value={billing} />
                  <button
                    type="submit"
                    disabled={navigation.state !== "idle"}
                    className={`w-full ${button.kind === "upgrade" ? "btn-primary" : "btn-secondary"}`}
                  >
                    {pendingPlan === plan.id ? "Updating..." : button.label}
                  </button>
                </Form>
              )}
            </div>
          </article>
        );
      })}
    </div>
  );
}
