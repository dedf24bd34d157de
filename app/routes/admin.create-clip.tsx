import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { CreateClipResult } from "~/domain/admin";
import { createClipFromForm } from "~/services/admin-clip-form.server";
import { requireAdmin } from "~/services/auth.server";
import { readForm } from "~/utils/forms";

// A resource route: a plain JSON response keeps its status (a client reads the body either way).
const reply = (body: CreateClipResult, status = 200, headers: HeadersInit = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  throw data("Use the Create Clip button on Calendars or Clips.", { status: 405 });
}

/**
 * The Create Clip form as JSON, for scripts: the same handler as the pages' dialog (`createClipFromForm`), so the
 * same rules, messages and ledger charge (K10 as a 401 body when the session has ended).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await createClipFromForm(request, context, await readForm(request));
  return outcome.ok ? reply(outcome.result) : reply(outcome.result, outcome.status, outcome.headers);
}
