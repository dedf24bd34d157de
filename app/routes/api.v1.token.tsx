import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { apiError, apiJson } from "~/services/api-response.server";
import { handOffApiToken } from "~/services/api-tokens.server";
import { overLimit, rateLimitedResponse } from "~/services/rate-limit-api.server";
import { audit } from "~/services/audit.server";
import { getOptionalUser } from "~/services/auth.server";

export async function loader() {
  return apiError(405, "bad_request", "Use POST to issue an extension token.");
}

/** Issues an extension token for the signed-in user (session cookie; same-origin only, checked by the Worker). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "bad_request", "Use POST to issue an extension token.");
  const user = await getOptionalUser(request, context);
  if (!user) return apiError(401, "unauthorized", "Sign in to connect the extension.");
  const { env } = context.cloudflare;
  // Per browser session: the hand-off needs one per sign-in, a loop gets 429 instead of a pile of tokens.
  const wait = await overLimit(env, "API_MINT_LIMITER", user.sessionId);
  if (wait !== null) return rateLimitedResponse(wait);
  const db = getDb(env.DB);
  const token = await handOffApiToken(env, user.id, user.sessionId);
  await audit(db, { action: "extension.token_issued", actorId: user.id, subjectId: user.id });
  return apiJson({ token }, 201);
}
