import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/error";
import { PlaceholderPage } from "~/components/admin/placeholder";
import { overviewTotals } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { formatRevenue } from "~/domain/plans";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const totals = await overviewTotals(getDb(context.cloudflare.env.DB));
  return {
    q: (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200),
    revenue: formatRevenue(totals.revenueCents),
  };
}

export default function AdminEarnings() {
  const { q, revenue } = useLoaderData<typeof loader>();
  return <PlaceholderPage name="earnings" q={q} values={{ "Total Revenue": revenue }} />;
}

export const meta: MetaFunction = () => [{ title: "Earnings | Admin | ClipCut" }];

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
