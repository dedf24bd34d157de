import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { accountExport } from "~/services/account-deletion.server";
import { audit } from "~/services/audit.server";
import { requireUser } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";

/**
 * "Download my data": the signed-in person's own data as one JSON file (a download, so it works without
 * JavaScript). Written in the security log, as a stolen session could use it too.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  const now = new Date();
  const body = JSON.stringify(await accountExport(db, user, now), null, 2);
  await audit(db, { action: "account.data_exported", actorId: user.id, subjectId: user.id, ip: clientIp(request) });
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="clipcut-data-${now.toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
