import type { ActionFunctionArgs } from "@remix-run/cloudflare";
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

/** Reserve a clip's cost before the companion cuts it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const claim = await requireApiClaim(request, context);
  const key = requireIdempotencyKey(request);
  const clipRequest = await parseClipRequest(request);
  const result = await apiLedger(context, claim, "reserve", { key, request: clipRequest });
  if (!result.ok) return ledgerError(result);
  return apiJson(result.value, result.replayed ? 200 : 201);
}
