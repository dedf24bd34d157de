import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { requireUser } from "~/services/auth.server";
import { setMaintenanceFlag } from "~/services/session.server";

/** "Got it" on the maintenance notice: clears the session's flag. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  await setMaintenanceFlag(getDb(context.cloudflare.env.DB), user.sessionId, false);
  return { ok: true };
}

export async function loader() {
  return redirect("/dashboard");
}
