import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { audit } from "~/services/audit.server";
import { getOptionalUser } from "~/services/auth.server";
import { clientIp } from "~/services/rate-limit.server";
import { endCurrentSession } from "~/services/session.server";

export async function loader() {
  return redirect("/");
}

/** Ends the session on the server (and the extension tokens it issued), then clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  const db = getDb(context.cloudflare.env.DB);
  const user = await getOptionalUser(request, context);
  const cookie = await endCurrentSession(context.cloudflare.env, request);
  if (user) await audit(db, { action: "auth.signout", actorId: user.id, subjectId: user.id, ip: clientIp(request) });
  return redirect("/signin", { headers: { "Set-Cookie": cookie } });
}
