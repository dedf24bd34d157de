import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { StatusBadge } from "~/components/admin/badge";
import { CreditUsageChart } from "~/components/admin/charts";
import { AdminErrorBoundary } from "~/components/admin/error";
import { ListTable, Td } from "~/components/list";
import { formatDate, PageHeader, Panel, StatCard, StatGrid } from "~/components/admin/ui";
import { creditUsageByMonth, overviewTotals, recentTransactions } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { formatRevenue } from "~/domain/plans";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const db = getDb(context.cloudflare.env.DB);
  // Spec: credit history and recent transactions that fail to load are logged and shown empty, not an error page.
  const orEmpty = <T,>(what: string, read: Promise<T[]>) =>
    read.catch((error: unknown) => {
      console.error(JSON.stringify({ level: "error", msg: `reports: ${what} failed`, error: String(error) }));
      return [] as T[];
    });
  let totals;
  try {
    totals = await overviewTotals(db);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "reports failed", error: String(error) }));
    throw data("Failed to load dashboard data: the database did not answer. Please try again.", { status: 500 });
  }
  const [usage, transactions] = await Promise.all([
    orEmpty("credit history", creditUsageByMonth(db)),
    orEmpty("recent transactions", recentTransactions(db)),
  ]);
  return {
    totals,
    usage,
    transactions: transactions.map((t) => ({ ...t, createdAt: t.createdAt.toISOString() })),
  };
}

export default function AdminReports() {
  const { totals, usage, transactions } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  return (
    <div>
      <PageHeader
        title="Usage Reports"
        crumb="Reports"
        actions={
          <a href="/admin/reports/export" download="transactions_export.csv" className="btn-secondary">
            Export CSV
          </a>
        }
      />
      <StatGrid>
        <StatCard label="Total Revenue" value={formatRevenue(totals.revenueCents)} />
        <StatCard label="Clips Created" value={totals.totalClips.toLocaleString("en-US")} />
        <StatCard label="Credits Used" value={totals.creditsUsed.toLocaleString("en-US")} />
        <StatCard label="Total Payouts" value="$0" />
      </StatGrid>
      <Panel title="Credit Usage by Month">
        <CreditUsageChart data={usage} />
      </Panel>
      <div className="mt-6">
        <Panel title="Recent Transactions (Clips)">
          {loading ? (
            <p role="status" className="py-6 text-center text-slate-600">
              Loading...
            </p>
          ) : (
            <ListTable
              caption="Recent transactions"
              columns={["Clip Name", "User", "Credits Used", "Date", "Status"]}
              isEmpty={transactions.length === 0}
              empty="No transactions found."
            >
              {transactions.map((t) => (
                <tr key={t.id}>
                  <Td className="font-medium">{t.name}</Td>
                  <Td>{t.fullName ?? "N/A"}</Td>
                  <Td className="tabular-nums">{t.cost}</Td>
                  <Td>{formatDate(t.createdAt)}</Td>
                  <Td>
                    <StatusBadge value="Completed" />
                  </Td>
                </tr>
              ))}
            </ListTable>
          )}
        </Panel>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Reports | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
