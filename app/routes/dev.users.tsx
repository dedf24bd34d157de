import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { PLAN_IDS } from "~/domain/plans";
import { createDevUser } from "~/services/dev-users.server";
import { isLocalMode } from "~/services/email.server";
import { readForm } from "~/utils/forms";

const schema = z.object({
  email: z.string().trim().email().max(254),
  fullName: z.string().trim().min(1).max(100).default("Test User"),
  password: z.string().min(8).max(200).optional(),
  plan: z.enum(PLAN_IDS).default("Free"),
  credits: z.coerce.number().int().min(0).max(1_000_000).optional(),
  role: z.enum(["user", "admin"]).default("user"),
});

const notFound = () => new Response("Not Found", { status: 404 });

export const loader = () => {
  throw notFound();
};

/**
 * Local mode only (a 404 in production): POST /dev/users creates a confirmed user with a plan, credits and a
 * session, answering { userId, email } with the session cookies. Tests use it instead of signing up through the form.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  if (!isLocalMode(env)) throw notFound();
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".")}: ${issue?.message}` }, { status: 400 });
  }
  const result = await createDevUser(env, request, parsed.data);
  if (!result.ok) return Response.json({ error: result.message }, { status: result.status });
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of result.session.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return Response.json({ userId: result.userId, email: result.email }, { headers });
}
