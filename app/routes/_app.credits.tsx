import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ErrorBox } from "~/components/error-box";
import { useLive } from "~/components/realtime";
import { TeamCard } from "~/components/team-card";
import { getDb } from "~/db/client.server";
import { ledgerPage } from "~/db/credits.server";
import { formatShortDate } from "~/domain/greeting";
import { CREDIT_HISTORY_FAILED_MESSAGE } from "~/domain/credits";
import { CREDIT_PACKS, effectivePlan, formatCents, planAllowance } from "~/domain/plans";
import { requireUser } from "~/services/auth.server";

const PAGE_SIZE = 20;
const query = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { page } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  // A failed history read still shows the page (balance, packs) with the error box where the history goes (K16).
  const history = await ledgerPage(getDb(context.cloudflare.env.DB), user.id, { page, size: PAGE_SIZE }).catch(
    (error: unknown) => {
      console.error(JSON.stringify({ level: "error", msg: "credit history failed", error: String(error) }));
      return null;
    },
  );
  return {
    rows: (history?.rows ?? []).map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    historyError: history ? null : CREDIT_HISTORY_FAILED_MESSAGE,
    page,
    pages: Math.max(1, Math.ceil((history?.total ?? 0) / PAGE_SIZE)),
    timeZone: user.timeZone ?? "UTC",
    purchased: new URL(request.url).searchParams.get("purchase") === "success",
  };
}

export default function CreditsPage() {
  const { rows, historyError, page, pages, timeZone, purchased } = useLoaderData<typeof loader>();
  const live = useLive();
  const allowance = planAllowance(effectivePlan(live.plan));
  const percent = Math.min(100, Math.round((live.credits.balance / allowance) * 100));
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold tracking-tight">Credits</h1>
      <TeamCard />
      <section className="card" aria-labelledby="balance-title">
        <h2 id="balance-title" className="text-sm font-medium text-slate-600">
          Current balance
        </h2>
        <p className="mt-2 text-4xl font-bold" data-testid="credit-balance">
          {live.credits.balance.toLocaleString("en-US")}
        </p>
        <div
          className="mt-4 h-3 overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label="Credits against your plan allowance"
          aria-valuemin={0}
          aria-valuemax={allowance}
          aria-valuenow={Math.min(live.credits.balance, allowance)}
        >
          <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
        <p className="mt-2 text-sm text-slate-600">
          {live.credits.balance.toLocaleString("en-US")} of {allowance.toLocaleString("en-US")} plan credits
        </p>
      </section>
      {purchased && (
        <p className="alert-success" role="status">
          Thank you! Your credits were added.
        </p>
      )}
      <section className="card" aria-labelledby="packs-title">
        <h2 id="packs-title" className="text-lg font-semibold">
          Buy More Credits
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-3">
          {CREDIT_PACKS.map((pack) => (
            <li key={pack.id} className="rounded-xl border border-slate-200 p-4">
              <p className="font-semibold">{pack.name}</p>
              <p className="text-sm text-slate-600">{formatCents(pack.priceCents)}, one time</p>
              <Form method="post" action="/billing/packs" className="mt-3">
                <input type="hidden" name="pack" value={pack.id} />
                <button type="submit" className="btn-secondary w-full">
                  Buy<span className="sr-only"> {pack.name}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      </section>
      <section className="card overflow-hidden p-0" aria-labelledby="history-title">
        <h2 id="history-title" className="px-6 pt-6 text-lg font-semibold">
          Credit history
        </h2>
        {historyError ? (
          <div className="p-6">
            <ErrorBox error={historyError} />
          </div>
        ) : (
          // Focusable so that keyboard users can scroll the table on a narrow screen.
          <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-labelledby="history-title">
            <table className="w-full min-w-[560px] text-left text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className="px-6 py-3 font-semibold">
                    Date
                  </th>
                  <th scope="col" className="px-6 py-3 font-semibold">
                    Description
                  </th>
                  <th scope="col" className="px-6 py-3 text-right font-semibold">
                    Amount
                  </th>
                  <th scope="col" className="px-6 py-3 text-right font-semibold">
                    Balance
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="px-6 py-8 text-center text-slate-600">
                      No credit activity yet.
                    </td>
                  </tr>
                ) : (
                  rows.map((row) => (
                    <tr key={row.id}>
                      <td className="whitespace-nowrap px-6 py-3 text-slate-600">
                        {formatShortDate(row.createdAt, timeZone)}
                      </td>
                      <td className="px-6 py-3">{row.description}</td>
                      <td
                        className={`px-6 py-3 text-right font-mono ${row.delta < 0 ? "text-red-700" : "text-emerald-700"}`}
                      >
                        {row.delta > 0 ? `+${row.delta}` : row.delta}
                      </td>
                      <td className="px-6 py-3 text-right font-mono text-slate-600">{row.balanceAfter}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 && (
          <nav aria-label="Credit history pages" className="flex items-center justify-between px-6 py-4 text-sm">
            {page > 1 ? (
              <Link to={`?page=${page - 1}`} className="btn-secondary">
                Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="text-slate-600">
              Page {page} of {pages}
            </span>
            {page < pages ? (
              <Link to={`?page=${page + 1}`} className="btn-secondary">
                Next
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Credits | ClipCut" },
  { name: "description", content: "Your credit balance and history." },
];
