import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { PLACEHOLDERS } from "~/domain/admin-placeholders";
import { csvResponse } from "~/services/admin-csv.server";
import { requireAdmin } from "~/services/auth.server";

/** The placeholder screens' Export CSV: their columns and no rows (there is no data behind them yet). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const name = params.table ?? "";
  if (!Object.hasOwn(PLACEHOLDERS, name)) throw data("Unknown export.", { status: 404 });
  const screen = PLACEHOLDERS[name as keyof typeof PLACEHOLDERS];
  return csvResponse(screen.csv, screen.headers, null);
}
