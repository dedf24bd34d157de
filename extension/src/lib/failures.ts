import type { JobError } from "../../../app/domain/companion";
import { INSUFFICIENT_CREDITS_MESSAGE } from "../../../app/domain/credits";
import type { Failure, FailureKind } from "./messages";

/** What each failure tells the user to do. */
export const FAILURE_TEXT: Record<Exclude<FailureKind, "credits" | "plan_limit" | "invalid" | "other">, string> = {
  stopped: "The ClipCut companion is not running. Start it with `npx clipcut-companion serve`, then try again.",
  not_installed: "Companion not installed — run `npx clipcut-companion install`, then try again.",
  outdated:
    "The ClipCut companion is too old for this extension. Update it (`npm install -g clipcut-companion@latest`), then run `clipcut-companion install`.",
  unpaired:
    "The extension is not paired with the companion. Open the ClipCut extension, enter the pairing token the companion printed, and press Pair.",
  signed_out: "You are signed out. Sign in to ClipCut on the website, then try again.",
};

/** A failure from an HTTP status and the server's own message. */
export function failureFromStatus(status: number, code: string, message: string): Failure {
  if (status === 402 || code === "insufficient_credits")
    return { kind: "credits", message: INSUFFICIENT_CREDITS_MESSAGE };
  if (code === "pairing_required" || code === "invalid_pairing_token")
    return { kind: "unpaired", message: FAILURE_TEXT.unpaired };
  if (status === 401 || code === "session_required" || code === "unauthorized")
    return { kind: "signed_out", message: FAILURE_TEXT.signed_out };
  if (status === 403 && code === "plan_limit") return { kind: "plan_limit", message };
  if (status === 400 || status === 422) return { kind: "invalid", message };
  return { kind: "other", message: message || "Something went wrong. Please try again." };
}

/**
 * A job the companion could not finish, an API refusal among them: told by its code like any other failure, so
 * only a plan limit offers an upgrade (a ban's 403 does not).
 */
export const jobFailure = (error: JobError): Failure =>
  failureFromStatus(error.status ?? 500, error.code, error.message);
