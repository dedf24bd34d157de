import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { clipPage } from "~/db/clips.server";
import {
  apiLedger,
  ledgerError,
  parseClipRequest,
  requireApiClaim,
  requireApiUser,
  requireIdempotencyKey,
} from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.string().datetime().optional(),
});

/** The caller's clips, newest first; page with ?before=<createdAt of the last clip>. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const query = listQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiError(400, "bad_request", "limit must be 1–100 and before an ISO date.");
  return apiJson(await clipPage(getDb(context.cloudflare.env.DB), user.id, query.data));
}

/** Create a clip: charged and saved atomically by the user's ledger. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "bad_request", "Use GET to list clips or POST to create one.");
  const claim = await requireApiClaim(request, context);
  const key = requireIdempotencyKey(request);
  const clipRequest = await parseClipRequest(request);
  const result = await apiLedger(context, claim, "charge", { key, request: clipRequest, source: "api" });
  if (!result.ok) return ledgerError(result);
  return apiJson({ clip: result.value.clip, credits: result.value.credits }, result.replayed ? 200 : 201);
}
