import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { holdRequestSchema, type ClipRequest } from "~/domain/api";
import {
  apiClipLedger,
  ledgerError,
  parseClipRequest,
  requireApiClaim,
  requireIdempotencyKey,
} from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";
import { holdTerms } from "~/services/plan.server";

export async function loader() {
  return apiError(405, "bad_request", "Use POST to reserve credits for a clip.");
}

/**
 * Reserve a clip's cost before the companion cuts it, and say what it is cut with: given the source's height, the
 * terms (quality charged, scale, watermark) are decided here once, so the job needs no other call.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const claim = await requireApiClaim(request, context);
  const key = requireIdempotencyKey(request);
  const hold = await parseClipRequest(request, holdRequestSchema);
  const terms = await holdTerms(getDb(context.cloudflare.env.DB), claim.id, hold);
  if (!terms) throw apiError(401, "unauthorized", "A valid extension token is required.");
  const { name, videoUrl, startSeconds, endSeconds, format } = hold;
  const clipRequest: ClipRequest = { name, videoUrl, startSeconds, endSeconds, format, quality: terms.quality };
  const result = await apiClipLedger(context, claim, "reserve", { key, request: clipRequest });
  if (!result.ok) return ledgerError(result);
  return apiJson({ ...result.value, terms }, result.replayed ? 200 : 201);
}
