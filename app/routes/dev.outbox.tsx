import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { isLocalMode, readOutbox } from "~/services/email.server";

/** Local mode only: the e-mails the app would have sent, newest first. A 404 in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  if (!isLocalMode(env)) throw new Response("Not Found", { status: 404 });
  const messages = await readOutbox(getDb(env.DB));
  return Response.json({ messages }, { headers: { "Cache-Control": "no-store" } });
}
