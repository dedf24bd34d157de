import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { holdRequestSchema } from "~/domain/api";
import {
  apiLedger,
  ledgerError,
  parseClipRequest,
  requireApiClaim,
  requireIdempotencyKey,
} from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";

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
  // The paying ledger decides the terms from its memory (the plan that pays): no read on the way.
  const result = await apiLedger(context, claim, "reserve", { key, request: hold });
  if (!result.ok) return ledgerError(result);
  return apiJson(result.value, result.replayed ? 200 : 201);
}
