import {
  data,
  redirectDocument,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { paymentsOf } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { formatShortDate } from "~/domain/greeting";
import { formatCents } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";
import { paymentMethodOf, portalUrl } from "~/services/billing.server";
import { readForm } from "~/utils/forms";

const STATUS_LABELS = { paid: "Paid", failed: "Failed", refunded: "Refunded", partially_refunded: "Partly refunded" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const payments = await paymentsOf(db, user.id);
  // The card is Stripe's to keep; we only ask for its brand and last digits. Stripe unreachable: no card shown.
  const card = await paymentMethodOf(env, db, user.id).catch((error: unknown) => {
    console.warn(JSON.stringify({ level: "warn", msg: "payment method lookup failed", error: String(error) }));
    return null;
  });
  const latest = payments.find((p) => p.kind === "invoice");
  return {
    card,
    failed: latest?.status === "failed" ? { number: latest.number ?? latest.id } : null,
    timeZone: user.timeZone ?? "UTC",
    invoices: payments.map((p) => ({
      id: p.id,
      number: p.number ?? p.id,
      description: p.description,
      date: p.createdAt.toISOString(),
      amount: formatCents(p.amountCents),
      status: STATUS_LABELS[p.status],
      url: p.invoiceUrl,
    })),
  };
}

/** "Add payment method" and "Manage billing" open Stripe's Customer Portal. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  if (form.intent !== "portal") return data({ message: "Unknown action." }, { status: 400 });
  try {
    return redirectDocument(
      await portalUrl(context.cloudflare.env, getDb(context.cloudflare.env.DB), new URL(request.url).origin, user),
    );
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "portal failed", error: String(error) }));
    return data({ message: "The billing portal could not be opened. Please try again." }, { status: 502 });
  }
}

export default function Billing() {
  const { card, failed, invoices, timeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold tracking-tight">Billing</h1>
      {failed && (
        <p className="alert-error" role="alert">
          Your last payment failed (invoice {failed.number}). Your plan stays as it is while we try again — please
          update your payment method.
        </p>
      )}
      {actionData && (
        <p className="alert-error" role="alert">
          {actionData.message}
        </p>
      )}
      <section className="card" aria-labelledby="payment-title">
        <h2 id="payment-title" className="text-lg font-semibold">
          Payment method
        </h2>
        {card ? (
          <p className="mt-2 text-slate-700" data-testid="payment-method">
            <span className="capitalize">{card.brand}</span> ending in {card.last4}, expires{" "}
            {String(card.expMonth).padStart(2, "0")}/{card.expYear}
          </p>
        ) : (
          <p className="mt-2 text-slate-600">You don&apos;t have a payment method saved.</p>
        )}
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="portal" />
          <button type="submit" className="btn-secondary">
            {card ? "Manage billing" : "Add payment method"}
          </button>
        </Form>
        <p className="mt-2 text-xs text-slate-500">Cards are kept by Stripe, our payment provider, never by ClipCut.</p>
      </section>
      <section className="card overflow-hidden p-0" aria-labelledby="history-title">
        <h2 id="history-title" className="px-6 pt-6 text-lg font-semibold">
          Billing history
        </h2>
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[560px] text-left text-sm">
            <thead className="bg-slate-50">
              <tr>
                {["Invoice", "Date", "Amount", "Status", "Download"].map((h) => (
                  <th key={h} scope="col" className="px-6 py-3 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {invoices.length === 0 ? (
                <tr>
                  <td colSpan={5} className="px-6 py-8 text-center text-slate-600">
                    No invoices yet.
                  </td>
                </tr>
              ) : (
                invoices.map((inv) => (
                  <tr key={inv.id} className="border-t border-slate-100">
                    <td className="px-6 py-3">
                      <span className="font-medium">{inv.number}</span>
                      <span className="block text-xs text-slate-500">{inv.description}</span>
                    </td>
                    <td className="px-6 py-3">{formatShortDate(inv.date, timeZone)}</td>
                    <td className="px-6 py-3">{inv.amount}</td>
                    <td className="px-6 py-3">{inv.status}</td>
                    <td className="px-6 py-3">
                      {inv.url ? (
                        <a href={inv.url} className="text-brand-700 underline" rel="noreferrer">
                          Download<span className="sr-only"> invoice {inv.number}</span>
                        </a>
                      ) : (
                        <span className="text-slate-400">—</span>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Billing | ClipCut" },
  { name: "description", content: "Payment method and invoices." },
];
