import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { effectivePlan, planLimits } from "~/domain/plans";
import type { MeResponse } from "~/domain/api";
import { readCredits } from "~/db/ledger.server";
import { getDb } from "~/db/client.server";
import { requireApiUser } from "~/services/api-auth.server";
import { apiJson } from "~/services/api-response.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  const credits = (await readCredits(getDb(context.cloudflare.env.DB), user.id)) ?? {
    balance: 0,
    held: 0,
    available: 0,
  };
  const body: MeResponse = {
    user: { id: user.id, email: user.email, fullName: user.fullName, plan: user.plan, role: user.role },
    credits,
    limits: planLimits(effectivePlan(user.plan)),
  };
  return apiJson(body);
}
