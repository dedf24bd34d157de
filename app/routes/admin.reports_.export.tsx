import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recentTransactions } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { RECENT_TRANSACTIONS } from "~/domain/admin";
import { csvResponse } from "~/services/admin-csv.server";
import { requireAdmin } from "~/services/auth.server";

/** The "Recent Transactions (Clips)" table as CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const rows = await recentTransactions(getDb(context.cloudflare.env.DB), RECENT_TRANSACTIONS);
  async function* once() {
    yield rows.map((t) => [t.name, t.fullName ?? "N/A", t.cost, t.createdAt.toISOString(), "Completed"] as const);
  }
  return csvResponse("transactions_export.csv", ["Clip Name", "User", "Credits Used", "Date", "Status"], once());
}
