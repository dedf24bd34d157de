import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { clipsForViewerExport } from "~/db/clips.server";
import { describeCaptions } from "~/domain/clip-request";
import { CLIPS_CSV_HEADER, clipsCsvName, clipsList, clipsWindow } from "~/domain/clips-list";
import { csvResponse, mapChunks } from "~/services/admin-csv.server";
import { requireUser } from "~/services/auth.server";

/** GET /clips/export?q=&format=&from=&to=: what the clips list shows with the same filters, every page, as CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const query = clipsList.parse(new URL(request.url).searchParams);
  const rows = clipsForViewerExport(
    getDb(context.cloudflare.env.DB),
    { userId: user.id, teamOwner: user.teamRole === "owner" },
    { q: query.q, format: query.format, ...clipsWindow(query, user.timeZone ?? "UTC") },
  );
  return csvResponse(
    clipsCsvName(query),
    CLIPS_CSV_HEADER,
    mapChunks(rows, (c) => [
      c.createdAt,
      c.name,
      c.videoUrl,
      c.startSeconds,
      c.endSeconds,
      Math.round((c.endSeconds - c.startSeconds) * 1000) / 1000,
      c.format,
      c.quality,
      c.cost,
      c.status,
      c.madeBy,
      c.aspect,
      c.cropPosition,
      c.captions ? describeCaptions(c.captions) : "",
    ]),
  );
}
