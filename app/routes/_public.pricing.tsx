import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Faq } from "~/components/faq";
import { BillingToggle, parseBilling } from "~/components/pricing/billing-toggle";
import { ComparisonTable } from "~/components/pricing/comparison-table";
import { PlanCards } from "~/components/pricing/plan-cards";
import { PRICING_FAQ } from "~/domain/faq";
import { effectivePlan } from "~/domain/plans";
import { useOptionalUser } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  return { billing: parseBilling(request.url) };
}

export default function Pricing() {
  const { billing } = useLoaderData<typeof loader>();
  const user = useOptionalUser();
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white py-16 sm:py-20">
        <div className="container-page text-center">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Simple pricing for every creator</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
            Start free with 100 credits. Upgrade when you need longer clips, higher quality and every format.
          </p>
          <div className="mt-8">
            <BillingToggle billing={billing} />
          </div>
        </div>
      </section>
      <section aria-label="Plans" className="container-page pb-16 pt-4">
        <PlanCards billing={billing} currentPlan={user ? effectivePlan(user.plan) : null} />
      </section>
      <section aria-labelledby="compare" className="container-page pb-16">
        <h2 id="compare" className="mb-6 text-2xl font-bold">
          Compare plans
        </h2>
        <ComparisonTable />
      </section>
      <section aria-labelledby="faq" className="container-page max-w-3xl pb-16">
        <h2 id="faq" className="mb-6 text-2xl font-bold">
          Frequently asked questions
        </h2>
        <Faq items={PRICING_FAQ} />
      </section>
      <section className="container-page pb-20">
        <div className="rounded-3xl bg-brand-700 px-6 py-12 text-center text-white">
          <h2 className="text-3xl font-bold">Ready to start clipping?</h2>
          <p className="mt-3 text-brand-100">Create a free account and get 100 credits.</p>
          <Link to="/signup" className="btn mt-6 bg-white text-brand-700 hover:bg-brand-50">
            Get Started
          </Link>
        </div>
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Pricing | ClipCut" },
  {
    name: "description",
    content: "ClipCut plans: Free, Basic, Advanced and Pro. Monthly or annual billing — save 33% with annual plans.",
  },
];
