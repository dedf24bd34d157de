import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { usersForExport } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { userList } from "~/domain/admin";
import { csvResponse, mapChunks } from "~/services/admin-csv.server";
import { requireAdmin } from "~/services/auth.server";

/** users_export.csv: the current search and filters, in list order. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const query = userList.parse(new URL(request.url).searchParams);
  const db = getDb(context.cloudflare.env.DB);
  return csvResponse(
    "users_export.csv",
    ["ID", "Full Name", "Email", "Role", "Plan", "Credits", "Status"],
    mapChunks(usersForExport(db, query), (u) => [
      u.id,
      u.fullName,
      u.email,
      u.role,
      u.plan === "Plugin" ? "Free" : u.plan,
      u.credits,
      u.status,
    ]),
  );
}
