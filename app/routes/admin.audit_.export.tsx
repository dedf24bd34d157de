import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { auditForExport } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { auditList } from "~/domain/admin-audit";
import { csvResponse, mapChunks } from "~/services/admin-csv.server";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const query = auditList.parse(new URL(request.url).searchParams);
  return csvResponse(
    "audit_log.csv",
    ["Time", "Action", "Actor ID", "Actor Email", "Subject ID", "Details", "IP"],
    mapChunks(auditForExport(getDb(context.cloudflare.env.DB), query), (r) => [
      r.createdAt.toISOString(),
      r.action,
      r.actorId,
      r.actorEmail,
      r.subjectId,
      r.details,
      r.ip,
    ]),
  );
}
