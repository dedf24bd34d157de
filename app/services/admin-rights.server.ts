import { getDb } from "~/db/client.server";
import { findUserById } from "~/db/user-access.server";
import { adminActionRefusal, needsStepUp, type AdminAction } from "~/domain/admin-rights";
import type { AppEnv } from "~/load-context";
import type { SessionUser } from "./auth.server";
import { isOwner, requireStepUp } from "./step-up.server";

type UsersInput =
  | { intent: "add"; role: string; currentPassword?: string }
  | { intent: "edit"; userId: string; role: string; currentPassword?: string }
  | { intent: "ban" | "unban" | "signout"; userId: string };

/**
 * The admin Users screen's checks before any write: a plain admin may not ban, demote or sign out another admin,
 * and role changes need a fresh step-up. Plan and credit changes are step-up checked by the user's ledger, on what it
 * would change (`adminEdit`). Null when the action may go on.
 */
export async function adminRightsRefusal(
  env: AppEnv,
  request: Request,
  admin: SessionUser,
  input: UsersInput,
): Promise<{ status: 401 | 403 | 429; message: string } | null> {
  const actor = { id: admin.id, owner: isOwner(env, admin) };
  if (input.intent === "add") {
    const sensitive = needsStepUp({ roleChanged: input.role !== "user" });
    return sensitive ? stepUp(env, request, admin, input.currentPassword) : null;
  }
  const target = await findUserById(getDb(env.DB), input.userId);
  if (!target) return null; // the service answers 404
  if (input.intent === "unban") return null;
  const action: AdminAction | null =
    input.intent === "edit" ? (target.role === "admin" && input.role !== "admin" ? "demote" : null) : input.intent;
  const refusal = action ? adminActionRefusal(actor, target, action) : null;
  if (refusal) return { status: 403, message: refusal };
  if (input.intent !== "edit") return null;
  const sensitive = needsStepUp({ roleChanged: input.role !== target.role });
  return sensitive ? stepUp(env, request, admin, input.currentPassword) : null;
}

async function stepUp(env: AppEnv, request: Request, admin: SessionUser, password: string | undefined) {
  const result = await requireStepUp(env, request, admin, password);
  return result.ok ? null : { status: result.status, message: result.message };
}
