import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { notifyRequestsForExport } from "~/db/inbox.server";
import { csvResponse, mapChunks } from "~/services/admin-csv.server";
import { requireAdmin } from "~/services/auth.server";

/** Every Safari "Notify Me" sign-up as CSV, oldest first: who to e-mail when the product ships. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return csvResponse(
    "notify_me_signups.csv",
    ["Email", "Product", "Signed Up (UTC)"],
    mapChunks(notifyRequestsForExport(getDb(context.cloudflare.env.DB)), (r) => [
      r.email,
      r.product,
      r.createdAt.toISOString(),
    ]),
  );
}
