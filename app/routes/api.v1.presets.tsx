import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { createPreset, listPresets } from "~/db/presets.server";
import { presetRequestSchema } from "~/domain/api";
import { checkPlanLimits } from "~/domain/plans";
import { PRESET_NAME_TAKEN, PRESETS_FULL_MESSAGE } from "~/domain/presets";
import { requireApiUser } from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";
import { requirePresetsPlan } from "~/services/presets.server";

/** GET /api/v1/presets → { presets } (Advanced and Pro). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const caller = await requireApiUser(request, context);
  const { db } = requirePresetsPlan(context, caller);
  return apiJson({ presets: await listPresets(db, caller.id) });
}

/** POST /api/v1/presets { name, format, quality, clipSeconds? } → 201 { preset }. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "bad_request", "Use GET to list presets or POST to save one.");
  const caller = await requireApiUser(request, context);
  const { db, plan } = requirePresetsPlan(context, caller);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return apiError(400, "bad_request", "The request body must be JSON.");
  }
  const parsed = presetRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return apiError(422, "invalid_input", `${where}${issue?.message ?? "Invalid preset."}`);
  }
  // A preset the plan could not cut is refused now, not at the first clip.
  const limits = checkPlanLimits(plan, {
    durationSeconds: parsed.data.clipSeconds ?? 0,
    format: parsed.data.format,
    quality: parsed.data.quality,
  });
  if (!limits.ok) return apiError(403, "plan_limit", limits.message);
  const saved = await createPreset(db, caller.id, parsed.data);
  if (!saved.ok) {
    return saved.reason === "full"
      ? apiError(403, "plan_limit", PRESETS_FULL_MESSAGE)
      : apiError(422, "invalid_input", `name: ${PRESET_NAME_TAKEN}`);
  }
  return apiJson({ preset: saved.preset }, 201);
}
