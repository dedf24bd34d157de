import { Link } from "@remix-run/react";
import { ANNUAL_SAVING_PERCENT, type Billing } from "~/domain/plans";

/** Two links, not a checkbox: the toggle works without JavaScript and the choice is in the URL. */
export function BillingToggle({ billing }: { billing: Billing }) {
  const option = (value: Billing, label: string) => (
    <Link
      to={value === "yearly" ? "?billing=yearly" : "?"}
      replace
      preventScrollReset
      aria-current={billing === value ? "true" : undefined}
      className={`rounded-full px-4 py-2 text-sm font-semibold transition ${
        billing === value ? "bg-white text-brand-700 shadow" : "text-slate-600 hover:text-slate-900"
      }`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Billing period" className="inline-flex rounded-full bg-slate-100 p-1">
      {option("monthly", "Monthly")}
      {option("yearly", `Annual (Save ${ANNUAL_SAVING_PERCENT}%)`)}
    </nav>
  );
}

export function parseBilling(url: string): Billing {
  return new URL(url).searchParams.get("billing") === "yearly" ? "yearly" : "monthly";
}
