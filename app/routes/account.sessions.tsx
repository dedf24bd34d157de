import { data, redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { endSession } from "~/services/access-revocation.server";
import { audit } from "~/services/audit.server";
import { requireUser } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { signOutEverywhere } from "~/services/user-moderation.server";
import { readForm } from "~/utils/forms";

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke"), sessionId: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.object({ intent: z.literal("others") }),
]);

export async function loader() {
  return redirect("/account");
}

/**
 * Signs out one of the user's other sessions (and the extension tokens it issued), or every session but this one.
 * Always answers with a redirect to /account, so it works the same with and without JavaScript.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) return data({ error: "That session could not be read. Please try again." }, 400);
  const ip = clientIp(request);
  if (parsed.data.intent === "others") {
    await signOutEverywhere({ env, db, actorId: user.id, userId: user.id, ip, keepSessionId: user.sessionId });
    return redirect("/account");
  }
  // This browser signs out with Sign Out (which also tells the extension); here it is ignored.
  if (parsed.data.sessionId === user.sessionId) return redirect("/account");
  // Scoped to the user: another user's session id changes nothing.
  const ended = await endSession(env, parsed.data.sessionId, user.id, "session ended");
  if (ended.ended) {
    await audit(db, { action: "auth.session_revoked", actorId: user.id, subjectId: user.id, ip });
  }
  return redirect("/account");
}
