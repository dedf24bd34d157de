import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { markEmailVerified } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { consumeEmailToken } from "~/services/email-tokens.server";
import { clientIp } from "~/services/rate-limit.server";
import { createUserSession } from "~/services/session.server";

/** The link in the confirmation e-mail: verifies the address and signs the user in. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = getDb(context.cloudflare.env.DB);
  const userId = await consumeEmailToken(db, params.token ?? "", "verify");
  if (!userId) {
    const notice = "This confirmation link is invalid or has expired. Sign in to get a new one.";
    throw redirect(`/signin?${new URLSearchParams({ error: notice })}`);
  }
  await markEmailVerified(db, userId);
  await audit(db, { action: "auth.email_verified", actorId: userId, subjectId: userId, ip: clientIp(request) });
  return createUserSession(db, request, userId, "/dashboard");
}
