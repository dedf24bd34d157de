/**
 * What deleting an account does, said once: the /account page and the admin's screen state it before anyone
 * confirms, the service carries it out, and the privacy policy says what stays and for how long.
 */
import { formatShortDate } from "./greeting";
import { formatCents, type PlanId } from "./plans";

/** The name a deleted account keeps (its row stays, for the ledger and invoices that the law keeps). */
export const DELETED_NAME = "Deleted user";
/** Reserved by RFC 2606: no mail can ever reach an address here, and no sign-up can use one. */
export const ERASED_EMAIL_DOMAIN = "deleted.invalid";
/** The e-mail column of a deleted account: unique (the account id), naming nobody. */
export const erasedEmail = (userId: string) => `${userId}@${ERASED_EMAIL_DOMAIN}`;
export const isErasedEmail = (email: string) => email.toLowerCase().endsWith(`@${ERASED_EMAIL_DOMAIN}`);

/** How long invoices, payments and the credit history of a deleted account are kept (tax and accounting law). */
export const BILLING_RECORDS_YEARS = 7;

/** The confirmation box the form asks for, so a stray click on the button deletes nothing. */
export const DELETE_CONFIRM_VALUE = "delete";

export const DELETION_MESSAGES = {
  confirmNeeded: "Tick the box to confirm that you want to delete your account.",
  noPassword:
    "Your account has no password yet (you sign in with Google). Set one under “Change password” on your account page first: deleting the account asks for it.",
  alreadyDeleted: "This account was already deleted.",
  notYourself: "Delete your own account from your account page, with your password.",
  lastAdmin: "This is the only active admin account. Make someone else an admin before deleting it.",
  stripeFailed: "Stripe did not answer, so nothing was deleted. Please try again in a minute.",
  failed: "Your account could not be deleted. Nothing was lost; please try again.",
  reasonNeeded: "Give a reason of at least 3 characters.",
} as const;

/** What an account holds when someone asks to delete it: the statement below is decided on this. */
export interface DeletionFacts {
  credits: number;
  plan: PlanId;
  /** The running Stripe subscription, if any. */
  subscription: { plan: PlanId; billing: "monthly" | "yearly"; periodEnd: number } | null;
  /** Subscription payments inside the money-back guarantee: their unspent part is refunded. */
  guaranteed: { amountCents: number; paidAt: number }[];
  team: { role: "owner"; members: number } | { role: "member" } | null;
}

export interface Consequence {
  id: "subscription" | "credits" | "team" | "data";
  title: string;
  text: string;
}

/** Whose account the statement speaks of: the person's own page says "you", the admin's screen "they". */
const VOICE = {
  you: { You: "You", you: "you", Your: "Your", your: "your", have: "have", leave: "leave" },
  they: { You: "They", you: "they", Your: "Their", your: "their", have: "have", leave: "leave" },
} as const;

/** The statement shown before deletion, one item per thing that changes, in the person's own terms. */
export function deletionConsequences(
  f: DeletionFacts,
  { timeZone = "UTC", voice = "you" }: { timeZone?: string; voice?: keyof typeof VOICE } = {},
): Consequence[] {
  const v = VOICE[voice];
  const out: Consequence[] = [];
  const refunds = f.guaranteed.map(
    (p) => `${formatCents(p.amountCents)} paid on ${formatShortDate(p.paidAt, timeZone)}`,
  );
  const several = refunds.length > 1;
  const refundText =
    refunds.length > 0
      ? ` ${v.Your} payment${several ? "s" : ""} of ${refunds.join(" and ")} ${several ? "are" : "is"} inside the 14-day money-back guarantee: the money of ${several ? "their" : "its"} unspent credits goes back to ${v.your} card.`
      : "";
  if (f.subscription)
    out.push({
      id: "subscription",
      title: "Subscription",
      text: `${v.Your} ${f.subscription.plan} plan (${f.subscription.billing}) is cancelled at once, not at the end of the period on ${formatShortDate(f.subscription.periodEnd, timeZone)}: nothing more is charged, and the time left is not refunded.${refundText}`,
    });
  else
    out.push({
      id: "subscription",
      title: "Plan",
      text:
        f.plan === "Free"
          ? `${v.You} ${v.have} no paid subscription, so nothing is charged or refunded.`
          : `${v.Your} ${f.plan} plan ends at once. There is no running subscription, so nothing more is charged.${refundText}`,
    });
  out.push({
    id: "credits",
    title: "Credits",
    text:
      f.credits > 0
        ? `${v.Your} ${f.credits.toLocaleString("en-US")} credits are cancelled. Credits cannot be paid out or moved to another account, and credit packs are not refunded.`
        : "There are no credits left, so none are lost.",
  });
  if (f.team?.role === "owner")
    out.push({
      id: "team",
      title: "Team",
      text:
        f.team.members > 0
          ? `${v.Your} Pro team closes: its ${f.team.members} other member${f.team.members > 1 ? "s leave" : " leaves"} it and pay${f.team.members > 1 ? "" : "s"} for clips from their own account from then on. We tell them by e-mail. Their clips stay theirs.`
          : `${v.Your} Pro team closes and its open invitations are cancelled.`,
    });
  else if (f.team?.role === "member")
    out.push({
      id: "team",
      title: "Team",
      text: `${v.You} ${v.leave} ${v.your} team. The team's credits stay with its owner.`,
    });
  out.push({
    id: "data",
    title: voice === "you" ? "Your data" : "Their data",
    text: `${v.Your} name, e-mail address, password, clips, presets, sessions and extension tokens are erased, and ${v.you} are signed out everywhere, the extension too. ${v.Your} invoices, payments and credit history are kept without ${v.your} name or e-mail address for ${BILLING_RECORDS_YEARS} years, as tax law requires. This cannot be undone.`,
  });
  return out;
}
