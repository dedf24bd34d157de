import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { effectivePlan, planLimits } from "~/domain/plans";
import type { MeResponse } from "~/domain/api";
import { getDb } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { requireApiUser } from "~/services/api-auth.server";
import { apiError, apiJson } from "~/services/api-response.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const caller = await requireApiUser(request, context);
  const user = await findUserById(getDb(context.cloudflare.env.DB), caller.id);
  if (!user) throw apiError(401, "unauthorized", "A valid extension token is required.");
  const body: MeResponse = {
    user: { id: user.id, email: user.email, fullName: user.fullName, plan: user.plan, role: user.role },
    credits: caller.credits,
    limits: planLimits(effectivePlan(user.plan)),
  };
  return apiJson(body);
}
