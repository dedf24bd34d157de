import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { GrowthChart } from "~/components/admin/charts";
import { AdminErrorBoundary } from "~/components/admin/error";
import { RangeTabs } from "~/components/admin/range-tabs";
import { PageHeader, Panel, StatCard, StatGrid } from "~/components/admin/ui";
import { growthSeries, overviewTotals } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { GROWTH_RANGES } from "~/domain/admin";
import { formatRevenue } from "~/domain/plans";
import { requireAdmin } from "~/services/auth.server";

const rangeSchema = z.enum(GROWTH_RANGES).catch("Month");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const range = rangeSchema.parse(new URL(request.url).searchParams.get("range") ?? undefined);
  const db = getDb(context.cloudflare.env.DB);
  let totals, growth;
  try {
    [totals, growth] = await Promise.all([overviewTotals(db), growthSeries(db, range)]);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "analytics failed", error: String(error) }));
    throw data("Failed to load dashboard data: the database did not answer. Please try again.", { status: 500 });
  }
  return {
    range,
    totals: {
      clips: totals.totalClips,
      revenueCents: totals.revenueCents,
      activeUsers: totals.activeUsers,
      creditsUsed: totals.creditsUsed,
    },
    growth,
  };
}

export default function AdminAnalytics() {
  const { range, totals, growth } = useLoaderData<typeof loader>();
  return (
    <div>
      <PageHeader title="Analytics" />
      <StatGrid>
        <StatCard label="Total Clips Created" value={totals.clips.toLocaleString("en-US")} />
        <StatCard label="Total Revenue" value={formatRevenue(totals.revenueCents)} />
        <StatCard label="Active Users" value={totals.activeUsers.toLocaleString("en-US")} testId="active-users" />
        <StatCard label="Credits Used" value={totals.creditsUsed.toLocaleString("en-US")} />
      </StatGrid>
      <Panel title="Growth Overview" actions={<RangeTabs ranges={GROWTH_RANGES} current={range} />}>
        <GrowthChart data={growth} caption={`Clips created and new users, ${range} view`} />
      </Panel>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Analytics | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
