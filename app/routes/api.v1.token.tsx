import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { apiError, apiJson } from "~/services/api-response.server";
import { issueApiToken } from "~/services/api-tokens.server";
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
  const db = getDb(context.cloudflare.env.DB);
  const token = await issueApiToken(db, user.id, user.sessionId);
  await audit(db, { action: "extension.token_issued", actorId: user.id, subjectId: user.id });
  return apiJson({ token }, 201);
}
