import { describe, expect, it } from "vitest";
import { INSUFFICIENT_CREDITS_MESSAGE } from "../../../app/domain/credits";
import { jobFailure } from "./failures";

/** A failed job is shown by its code: what the panel offers (Upgrade, Sign in) follows from the kind. */
describe("a job the API refused", () => {
  it("is a plan limit only when the API says plan_limit", () => {
    const limit = "Clips on the Free plan can be at most 60 seconds long.";
    expect(jobFailure({ code: "plan_limit", message: limit, status: 403 })).toEqual({
      kind: "plan_limit",
      message: limit,
    });
    // A banned account's refusal is a 403 too, but no plan lifts it.
    const banned = jobFailure({ code: "forbidden", message: "This account has been banned.", status: 403 });
    expect(banned).toEqual({ kind: "other", message: "This account has been banned." });
  });

  it("is out of credits, signed out, or the companion's own failure, by its code", () => {
    expect(jobFailure({ code: "insufficient_credits", message: "x", status: 402 })).toEqual({
      kind: "credits",
      message: INSUFFICIENT_CREDITS_MESSAGE,
    });
    expect(jobFailure({ code: "session_required", message: "Connect first.", status: 401 }).kind).toBe("signed_out");
    expect(jobFailure({ code: "ffmpeg_failed", message: "FFmpeg stopped." })).toEqual({
      kind: "other",
      message: "FFmpeg stopped.",
    });
  });
});
