import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { apiLedger, ledgerError, requireApiClaim } from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";

const params = z.object({ id: z.string().uuid(), op: z.enum(["capture", "release"]) });

export async function loader() {
  return apiError(405, "bad_request", "Use POST.");
}

/** capture: the file is written, turn the hold into a charge. release: the cut failed, give the credits back. */
export async function action({ request, params: raw, context }: ActionFunctionArgs) {
  const parsed = params.safeParse(raw);
  if (!parsed.success) return apiError(404, "not_found", "Unknown hold operation.");
  const claim = await requireApiClaim(request, context);
  const { id, op } = parsed.data;
  // Both are idempotent on the hold itself: capturing twice returns the same clip, releasing twice is a no-op.
  const result =
    op === "capture"
      ? await apiLedger(context, claim, "capture", { holdId: id })
      : await apiLedger(context, claim, "release", { holdId: id });
  if (!result.ok) return ledgerError(result);
  return apiJson(result.value);
}
