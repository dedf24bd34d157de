import { z } from "zod";
import { PLAN_IDS, type PlanId } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { getDb } from "~/db/client.server";
import { readForm } from "~/utils/forms";
import { createUser, findUserByEmail, welcomeAccount } from "~/services/accounts.server";
import { changePlan } from "~/services/billing.server";
import { ledger } from "~/services/ledger.server";
import { hashPassword } from "~/services/password.server";
import { createUserSession } from "~/services/session.server";
import { setUserRole } from "~/services/user-moderation.server";

/** Local only: the tests' user fixture, served by the local entry (workers/local.ts) under /dev/users. */
export interface DevUserInput {
  email: string;
  fullName: string;
  password?: string;
  plan: PlanId;
  credits?: number;
  role: "user" | "admin";
}

/** What the fixture does on the stand-in's hosted pages: pay a checkout, then let Stripe's events go out. */
export interface DevCheckout {
  complete(sessionId: string, cardNumber: string): Promise<{ ok: true } | { ok: false; message: string }>;
  deliverEvents(): Promise<unknown>;
}

export type DevUserResult =
  { ok: true; userId: string; email: string; session: Response } | { ok: false; status: number; message: string };

/**
 * Local mode's test fixture (GET-free, POST /dev/users): a confirmed account with the plan, credits and role a test
 * needs, and a signed-in session, without the sign-up form (only auth.spec signs up through it). A paid plan is
 * bought as a customer buys it: a monthly subscription paid with 4242… on the stand-in's checkout, applied by
 * Stripe's events through the webhook (a ledger never raises a plan without a paid invoice). Credits then change
 * through the user's ledger, like every other balance.
 */
export async function createDevUser(
  env: AppEnv,
  request: Request,
  input: DevUserInput,
  checkout: DevCheckout,
): Promise<DevUserResult> {
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
    const origin = new URL(request.url).origin;
    const buyer = { id: user.id, email: user.email, fullName: user.fullName, plan: "Free", pendingPlan: null };
    const started = await changePlan(env, db, origin, buyer, input.plan, "monthly");
    if (started.kind !== "checkout") return { ok: false, status: 500, message: `No checkout for ${input.plan}.` };
    const paid = await checkout.complete(new URL(started.url).pathname.split("/").pop() ?? "", "4242 4242 4242 4242");
    if (!paid.ok) return { ok: false, status: 402, message: paid.message };
    await checkout.deliverEvents();
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

const schema = z.object({
  email: z.string().trim().email().max(254),
  fullName: z.string().trim().min(1).max(100).default("Test User"),
  password: z.string().min(8).max(200).optional(),
  plan: z.enum(PLAN_IDS).default("Free"),
  credits: z.coerce.number().int().min(0).max(1_000_000).optional(),
  role: z.enum(["user", "admin"]).default("user"),
});

/**
 * POST /dev/users, served by the local entry only (no deploy has it): creates a confirmed user with a plan, credits
 * and a session, answering { userId, email } with the session cookies. Tests use it instead of the sign-up form.
 */
export async function devUsersRoute(request: Request, env: AppEnv, checkout: DevCheckout): Promise<Response> {
  if (request.method !== "POST") return new Response("Not Found", { status: 404 });
  let form: Record<string, string>;
  try {
    form = await readForm(request);
  } catch (unreadable) {
    if (unreadable instanceof Response) return unreadable;
    throw unreadable;
  }
  const parsed = schema.safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".")}: ${issue?.message}` }, { status: 400 });
  }
  const result = await createDevUser(env, request, parsed.data, checkout);
  if (!result.ok) return Response.json({ error: result.message }, { status: result.status });
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of result.session.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return Response.json({ userId: result.userId, email: result.email }, { headers });
}
