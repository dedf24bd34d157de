import { findUser, updateUserProfile } from "~/db/admin.server";
import type { Db } from "~/db/client.server";
import { NEW_USER_CREDITS } from "~/domain/credits";
import { adminEditChanges } from "~/domain/ledger";
import type { PlanId } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { createUser, findUserByEmail, isUniqueViolation, welcomeAccount } from "./accounts.server";
import { publishAdminEvent } from "./admin-events.server";
import { audit } from "./audit.server";
import { actionEmail, sendEmail } from "./email.server";
import { issueEmailToken } from "./email-tokens.server";
import { busyHeaders, ledger } from "./ledger.server";
import type { StepUpResult } from "./step-up.server";
import { setUserRole } from "./user-moderation.server";

/**
 * Admin account management. Plan and credits change only through the user's UserLedger (`adminEdit`: plan and
 * balance in one decision, the admin as actor, a reason on the ledger row), so the very next request is decided
 * on them. The ledger asks for the admin's step-up on what it would change, and sets the balance only if it is still
 * the one the form showed. Name and role are plain profile writes, published to admin pages like every other change.
 */
type Ctx = {
  env: AppEnv;
  db: Db;
  adminId: string;
  ip?: string;
  origin: string;
  /** The admin's session (the ledger reads its step-up) and the password check that renews it. */
  stepUp: { sessionId: string; prove: () => Promise<StepUpResult> };
};
export type AdminResult =
  { ok: true; userId: string } | { ok: false; status: number; message: string; headers?: HeadersInit };

async function editMoney(
  ctx: Ctx,
  userId: string,
  input: { plan: PlanId; expectedBalance: number; credits: number; key: string; reason: string },
): Promise<{ ok: true; creditsChanged: boolean; planChanged: boolean } | Extract<AdminResult, { ok: false }>> {
  const edit = () =>
    ledger(ctx.env, userId).adminEdit({
      key: input.key,
      plan: input.plan,
      expectedBalance: input.expectedBalance,
      newBalance: input.credits,
      actorId: ctx.adminId,
      reason: input.reason,
      stepUp: { sessionId: ctx.stepUp.sessionId },
    });
  let result = await edit();
  if (!result.ok && result.reason === "step_up_required") {
    // The ledger would change money and this session's step-up is not fresh: check the password, then ask again.
    const proved = await ctx.stepUp.prove();
    if (!proved.ok) return { ok: false, status: proved.status, message: proved.message };
    result = await edit();
  }
  if (!result.ok) return { ok: false, status: result.status, message: result.message, headers: busyHeaders(result) };
  if (!result.replayed && result.value.creditsChanged)
    await audit(ctx.db, {
      action: "admin.credits_adjusted",
      actorId: ctx.adminId,
      subjectId: userId,
      ip: ctx.ip,
      details: { credits: result.value.credits.balance, reason: input.reason },
    });
  return { ok: true, creditsChanged: result.value.creditsChanged, planChanged: result.value.planChanged };
}

export async function addUser(
  ctx: Ctx,
  input: { fullName: string; email: string; role: "user" | "admin"; plan: PlanId; credits: number; key: string },
): Promise<AdminResult> {
  if (await findUserByEmail(ctx.db, input.email)) {
    return { ok: false, status: 409, message: "A user with this email already exists." };
  }
  // A new account starts Free with the welcome credits: step-up is asked before it is created, on the same rule
  // the ledger applies, so a refused password leaves no half-made account.
  const money = adminEditChanges(
    { plan: "Free", pendingPlan: null },
    { plan: input.plan, expectedBalance: NEW_USER_CREDITS, newBalance: input.credits },
  );
  if (money.planChanged || money.balanceChanged) {
    const proved = await ctx.stepUp.prove();
    if (!proved.ok) return { ok: false, status: proved.status, message: proved.message };
  }
  let userId: string;
  try {
    const user = await createUser(ctx.db, { email: input.email, fullName: input.fullName, verified: true });
    userId = (await welcomeAccount(ctx.env, user)).id;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: "A user with this email already exists." };
    throw error;
  }
  if (input.role === "admin") {
    const role = await setUserRole({
      env: ctx.env,
      db: ctx.db,
      actorId: ctx.adminId,
      userId,
      role: "admin",
      ip: ctx.ip,
    });
    if (!role.ok) return role;
  }
  const initial = await editMoney(ctx, userId, {
    plan: input.plan,
    expectedBalance: NEW_USER_CREDITS,
    credits: input.credits,
    key: `admin-create:${input.key}`,
    reason: "Initial credits",
  });
  if (!initial.ok) return initial;
  await audit(ctx.db, {
    action: "admin.user_created",
    actorId: ctx.adminId,
    subjectId: userId,
    ip: ctx.ip,
    details: { role: input.role, plan: input.plan, credits: input.credits },
  });
  // The invitation: a set-password link (the reset flow), so the new user chooses their own password.
  const token = await issueEmailToken(ctx.db, userId, "reset");
  await sendEmail(
    { env: ctx.env, db: ctx.db },
    actionEmail({
      to: input.email,
      subject: "You have been invited to ClipCut",
      intro: `Hi ${input.fullName}, an administrator created a ClipCut account for you.`,
      action: "Set my password",
      url: `${ctx.origin}/reset-password/${token}`,
      outro: "The link works once and expires soon. If it has expired, use “Forgot password” on the sign-in page.",
    }),
  );
  return { ok: true, userId };
}

export async function editUser(
  ctx: Ctx,
  input: {
    userId: string;
    fullName: string;
    role: "user" | "admin";
    plan: PlanId;
    /** The balance the form showed; `credits` is set only if the balance is still this. */
    shownCredits: number;
    credits: number;
    reason: string;
    key: string;
  },
): Promise<AdminResult> {
  const user = await findUser(ctx.db, input.userId);
  if (!user) return { ok: false, status: 404, message: "User not found." };
  if (input.shownCredits !== input.credits && !input.reason) {
    return { ok: false, status: 400, message: "Please give a reason for the credit change." };
  }
  if (user.role !== input.role) {
    const role = await setUserRole({
      env: ctx.env,
      db: ctx.db,
      actorId: ctx.adminId,
      userId: input.userId,
      role: input.role,
      ip: ctx.ip,
    });
    if (!role.ok) return role;
  }
  if (user.fullName !== input.fullName) await updateUserProfile(ctx.db, input.userId, { fullName: input.fullName });
  const money = await editMoney(ctx, input.userId, {
    plan: input.plan,
    expectedBalance: input.shownCredits,
    credits: input.credits,
    key: `admin-edit:${input.key}`,
    reason: input.reason,
  });
  if (!money.ok) return money;
  // The ledger published its own changes; a profile-only edit is published here.
  if (!money.planChanged && !money.creditsChanged) await publishAdminEvent(ctx.env, "users");
  await audit(ctx.db, {
    action: "admin.user_updated",
    actorId: ctx.adminId,
    subjectId: input.userId,
    ip: ctx.ip,
    details: { fullName: input.fullName, plan: input.plan, role: input.role },
  });
  return { ok: true, userId: input.userId };
}
