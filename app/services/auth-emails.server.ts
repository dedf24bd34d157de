import { joinPathAfterSignup } from "~/domain/teams";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { actionEmail, sendEmail } from "./email.server";
import { issueEmailToken } from "./email-tokens.server";
import type { User } from "./auth.server";

function origin(request: Request): string {
  return new URL(request.url).origin;
}

/**
 * The confirmation link for a sign-up. It carries the password chosen at that sign-up and the browser it came from.
 * The text names nobody: the full name is chosen by whoever signed up, who may not own the address (no attacker
 * text, and no attacker URL, in a mail we send).
 */
export async function sendVerificationEmail(
  ctx: { env: AppEnv; db: Db },
  request: Request,
  user: Pick<User, "id" | "email">,
  pending: { passwordHash: string | null; browserHash: string | null },
  /** Where the confirmed account goes next: a team invitation's path (checked by the domain), else the dashboard. */
  next: string | null = null,
) {
  const token = await issueEmailToken(ctx.db, user.id, "verify", pending);
  const then = joinPathAfterSignup(next);
  await sendEmail(
    ctx,
    actionEmail({
      to: user.email,
      subject: "Confirm your ClipCut account",
      intro: "Thanks for signing up for ClipCut. Please confirm your e-mail address to start clipping.",
      action: "Confirm my e-mail",
      url: `${origin(request)}/verify-email/${token}${then ? `?${new URLSearchParams({ next: then })}` : ""}`,
      outro:
        "The link works once and expires in 24 hours. If you did not sign up, ignore this e-mail: nothing happens until the link is used.",
    }),
  );
}

export async function sendPasswordResetEmail(ctx: { env: AppEnv; db: Db }, request: Request, user: User) {
  const token = await issueEmailToken(ctx.db, user.id, "reset");
  await sendEmail(
    ctx,
    actionEmail({
      to: user.email,
      subject: "Reset your ClipCut password",
      intro: "Someone (hopefully you) asked to reset the password of your ClipCut account.",
      action: "Choose a new password",
      url: `${origin(request)}/reset-password/${token}`,
      outro:
        "The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays the same.",
    }),
  );
}

/** Sent when someone signs up with an address that already has a verified account. */
export async function sendAlreadyRegisteredEmail(ctx: { env: AppEnv; db: Db }, request: Request, user: User) {
  await sendEmail(
    ctx,
    actionEmail({
      to: user.email,
      subject: "You already have a ClipCut account",
      intro: "Someone tried to create a ClipCut account with this e-mail address, which already has one.",
      action: "Sign in",
      url: `${origin(request)}/signin`,
      outro:
        "Forgot your password? Use “Forgot password?” on the sign-in page. If this wasn't you, no action is needed.",
    }),
  );
}
