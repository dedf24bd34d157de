import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { deletePreset } from "~/db/presets.server";
import { requireApiUser } from "~/services/api-auth.server";
import { apiError } from "~/services/api-response.server";
import { requirePresetsPlan } from "~/services/presets.server";

const params = z.object({ id: z.string().uuid() });

export async function loader() {
  return apiError(405, "bad_request", "Use DELETE.");
}

/** DELETE /api/v1/presets/{id} → 204; someone else's or a missing preset → 404. */
export async function action({ request, params: raw, context }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return apiError(405, "bad_request", "Use DELETE.");
  const caller = await requireApiUser(request, context);
  const { db } = requirePresetsPlan(context, caller);
  const parsed = params.safeParse(raw);
  if (!parsed.success || !(await deletePreset(db, caller.id, parsed.data.id))) {
    return apiError(404, "not_found", "No such preset.");
  }
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
