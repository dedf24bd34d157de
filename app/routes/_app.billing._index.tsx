import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireUser } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

/** Billing runs in manual mode (no payment provider yet): nothing saved, no invoices. */
export default function Billing() {
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold tracking-tight">Billing</h1>
      <section className="card" aria-labelledby="payment-title">
        <h2 id="payment-title" className="text-lg font-semibold">
          Payment method
        </h2>
        <p className="mt-2 text-slate-600">You don&apos;t have a payment method saved.</p>
        <button type="button" className="btn-secondary mt-4" disabled aria-describedby="payment-soon">
          Add payment method
        </button>
        <p id="payment-soon" className="mt-2 text-xs text-slate-500">
          Online payments are coming soon.
        </p>
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
              <tr>
                <td colSpan={5} className="px-6 py-8 text-center text-slate-600">
                  No invoices yet.
                </td>
              </tr>
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
