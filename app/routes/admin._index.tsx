import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { StatusBadge } from "~/components/admin/badge";
import { GrowthChart, PlanDonut } from "~/components/admin/charts";
import { AdminErrorBoundary } from "~/components/admin/error";
import { RangeTabs } from "~/components/admin/range-tabs";
import { ListTable, Td } from "~/components/list";
import { formatDate, PageHeader, Panel, StatCard, StatGrid } from "~/components/admin/ui";
import {
  growthSeries,
  overviewTotals,
  planDistribution,
  recentSignups,
  revenueInOtherCurrencies,
} from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { formatRevenue } from "~/domain/plans";
import { requireAdmin } from "~/services/auth.server";

const RANGES = ["Month", "Week", "Day"] as const;
const rangeSchema = z.enum(RANGES).catch("Month");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const range = rangeSchema.parse(new URL(request.url).searchParams.get("range") ?? undefined);
  const db = getDb(context.cloudflare.env.DB);
  try {
    const [totals, growth, plans, signups, otherCurrencies] = await Promise.all([
      overviewTotals(db),
      growthSeries(db, range),
      planDistribution(db),
      recentSignups(db),
      revenueInOtherCurrencies(db),
    ]);
    return {
      range,
      totals,
      otherCurrencies,
      growth,
      plans,
      signups: signups.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
    };
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "overview failed", error: String(error) }));
    throw data("Failed to load dashboard data: the database did not answer. Please try again.", { status: 500 });
  }
}

export default function AdminOverview() {
  const { range, totals, otherCurrencies, growth, plans, signups } = useLoaderData<typeof loader>();
  return (
    <div>
      <PageHeader title="Overviews" />
      <StatGrid>
        <StatCard label="Total Users" value={totals.totalUsers.toLocaleString("en-US")} testId="total-users" />
        <StatCard label="Total Clips" value={totals.totalClips.toLocaleString("en-US")} testId="total-clips" />
        <StatCard label="Total Credits Used" value={totals.creditsUsed.toLocaleString("en-US")} />
        <StatCard label="Total Revenue" value={formatRevenue(totals.revenueCents)} testId="total-revenue" />
      </StatGrid>
      {otherCurrencies.length > 0 && (
        <p className="-mt-3 mb-6 text-sm text-slate-600" data-testid="revenue-other-currencies">
          Revenue in other currencies (not in the total):{" "}
          {otherCurrencies.map((c) => `${(c.cents / 100).toFixed(2)} ${c.currency.toUpperCase()}`).join(", ")}
        </p>
      )}
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="min-w-0 xl:col-span-2">
          <Panel title="Growth Metrics" actions={<RangeTabs ranges={RANGES} current={range} />}>
            <GrowthChart
              data={growth}
              caption={`New users and clips per ${range === "Day" ? "hour" : range === "Week" ? "day" : "month"}`}
            />
          </Panel>
        </div>
        <Panel title="Plan Distribution">
          <PlanDonut data={plans} />
        </Panel>
      </div>
      <div className="mt-6">
        <Panel title="Recent User Signups">
          <ListTable
            caption="Recent user signups"
            columns={["Name", "Email", "Plan", "Status", "Joined On"]}
            isEmpty={signups.length === 0}
            empty="No users found."
          >
            {signups.map((u) => (
              <tr key={u.id}>
                <Td className="font-medium">{u.fullName}</Td>
                <Td>{u.email}</Td>
                <Td>
                  <StatusBadge value={u.plan} />
                </Td>
                <Td>
                  <StatusBadge value={u.status} />
                </Td>
                <Td>{formatDate(u.createdAt)}</Td>
              </tr>
            ))}
          </ListTable>
        </Panel>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Overviews | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
