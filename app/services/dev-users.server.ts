import type { PlanId } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { getDb } from "~/db/client.server";
import { createUser, findUserByEmail, welcomeAccount } from "./accounts.server";
import { ledger } from "./ledger.server";
import { hashPassword } from "./password.server";
import { createUserSession } from "./session.server";
import { setUserRole } from "./user-moderation.server";

export interface DevUserInput {
  email: string;
  fullName: string;
  password?: string;
  plan: PlanId;
  credits?: number;
  role: "user" | "admin";
}

export type DevUserResult =
  { ok: true; userId: string; email: string; session: Response } | { ok: false; status: number; message: string };

/**
 * Local mode's test fixture (GET-free, POST /dev/users): a confirmed account with the plan, credits and role a test
 * needs, and a signed-in session, without the sign-up form or the checkout (only auth.spec and payments.spec go
 * through those). Plan and credits still change through the user's ledger, like every other balance.
 */
export async function createDevUser(env: AppEnv, request: Request, input: DevUserInput): Promise<DevUserResult> {
  const db = getDb(env.DB);
  if (await findUserByEmail(db, input.email)) return { ok: false, status: 409, message: "That e-mail is taken." };
  const created = await createUser(db, {
    email: input.email,
    fullName: input.fullName,
    passwordHash: input.password ? await hashPassword(input.password) : null,
    verified: true,
  });
  const user = await welcomeAccount(env, created);
  const account = ledger(env, user.id);
  if (input.plan !== "Free") {
    const plan = await account.changePlan({ plan: input.plan });
    if (!plan.ok) return { ok: false, status: plan.status, message: plan.message };
  }
  if (input.credits !== undefined) {
    const credits = await account.adjust({
      key: `dev-user:${user.id}`,
      newBalance: input.credits,
      actorId: user.id,
      reason: "Test fixture",
    });
    if (!credits.ok) return { ok: false, status: credits.status, message: credits.message };
  }
  if (input.role === "admin") {
    const role = await setUserRole({ env, db, actorId: user.id, userId: user.id, role: "admin", ip: "127.0.0.1" });
    if (!role.ok) return { ok: false, status: role.status, message: role.message };
  }
  const session = await createUserSession(env, request, user.id, "/dashboard");
  return { ok: true, userId: user.id, email: user.email, session };
}
