import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { clipsForExport } from "~/db/analytics.server";
import { getDb } from "~/db/client.server";
import { ANALYTICS_UPSELL, analyticsCsvName, analyticsRangeSchema, analyticsWindow } from "~/domain/analytics";
import { csvResponse, mapChunks } from "~/services/admin-csv.server";
import { requireUser } from "~/services/auth.server";

/** GET /analytics/export?range=30d: the signed-in creator's own clips in the range, as CSV (Advanced and Pro). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const db = getDb(context.cloudflare.env.DB);
  if (!user.standing.applied.analytics) {
    return new Response(`${ANALYTICS_UPSELL}.\n`, {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const range = analyticsRangeSchema.parse(new URL(request.url).searchParams.get("range") ?? undefined);
  const rows = clipsForExport(db, user.id, analyticsWindow(range, Date.now()));
  return csvResponse(
    analyticsCsvName(range),
    ["Created", "Name", "Video", "Start (s)", "End (s)", "Length (s)", "Format", "Quality", "Credits", "Status"],
    mapChunks(rows, (c) => [
      c.createdAt.toISOString(),
      c.name,
      c.videoUrl,
      c.startTimeSeconds,
      c.endTimeSeconds,
      Math.round((c.endTimeSeconds - c.startTimeSeconds) * 1000) / 1000,
      c.format,
      c.quality,
      c.cost,
      c.status,
    ]),
  );
}
