import { findUser, updateUserProfile } from "~/db/admin.server";
import type { Db } from "~/db/client.server";
import type { PlanId } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { createUser, findUserByEmail, isUniqueViolation } from "./accounts.server";
import { audit } from "./audit.server";
import { actionEmail, sendEmail } from "./email.server";
import { issueEmailToken } from "./email-tokens.server";
import { ledgerFor } from "./ledger.server";
import { setUserRole } from "./user-moderation.server";

/**
 * Admin account management. Credits never change by a direct write: a new or edited balance is an `adjust` row
 * through the user's UserLedger, with the admin as actor and a reason; role changes go through the moderation
 * service (it closes a demoted admin's feed).
 */
type Ctx = { env: AppEnv; db: Db; adminId: string; ip?: string; origin: string };
export type AdminResult = { ok: true; userId: string } | { ok: false; status: number; message: string };

async function setCredits(ctx: Ctx, userId: string, credits: number, key: string, reason: string) {
  const result = await ledgerFor(ctx.env, userId).adjust({
    userId,
    key,
    newBalance: credits,
    actorId: ctx.adminId,
    reason,
  });
  if (!result.ok) return { ok: false as const, status: result.status, message: result.message };
  if (!result.replayed) {
    await audit(ctx.db, {
      action: "admin.credits_adjusted",
      actorId: ctx.adminId,
      subjectId: userId,
      ip: ctx.ip,
      details: { credits: result.value.credits.balance, reason },
    });
  }
  return { ok: true as const };
}

export async function addUser(
  ctx: Ctx,
  input: { fullName: string; email: string; role: "user" | "admin"; plan: PlanId; credits: number; key: string },
): Promise<AdminResult> {
  if (await findUserByEmail(ctx.db, input.email)) {
    return { ok: false, status: 409, message: "A user with this email already exists." };
  }
  let userId: string;
  try {
    const user = await createUser(ctx.db, { email: input.email, fullName: input.fullName, verified: true });
    userId = user.id;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: "A user with this email already exists." };
    throw error;
  }
  await updateUserProfile(ctx.db, userId, { fullName: input.fullName, role: "user", plan: input.plan });
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
  const created = await findUser(ctx.db, userId);
  if (created && created.credits !== input.credits) {
    const set = await setCredits(ctx, userId, input.credits, `admin-create:${input.key}`, "Initial credits");
    if (!set.ok) return set;
  }
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
    credits: number;
    reason: string;
    key: string;
  },
): Promise<AdminResult> {
  const user = await findUser(ctx.db, input.userId);
  if (!user) return { ok: false, status: 404, message: "User not found." };
  if (user.credits !== input.credits && !input.reason) {
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
  await updateUserProfile(ctx.db, input.userId, { fullName: input.fullName, role: input.role, plan: input.plan });
  if (user.credits !== input.credits) {
    const set = await setCredits(ctx, input.userId, input.credits, `admin-edit:${input.key}`, input.reason);
    if (!set.ok) return set;
  }
  await audit(ctx.db, {
    action: "admin.user_updated",
    actorId: ctx.adminId,
    subjectId: input.userId,
    ip: ctx.ip,
    details: { fullName: input.fullName, plan: input.plan, role: input.role },
  });
  return { ok: true, userId: input.userId };
}
