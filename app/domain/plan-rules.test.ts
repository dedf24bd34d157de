import { describe, expect, it } from "vitest";
import type { Format, Quality } from "./media";
import { checkPlanLimits, effectivePlan, planButton, type PlanId } from "./plans";

/** Table-driven: each row is one decision of the plan rules, read as a sentence. */
describe("plan limits, decision by decision", () => {
  const rows: [PlanId, number, Format, Quality, "ok" | "length" | "quality" | "format"][] = [
    ["Free", 60, "mp4", "720p", "ok"],
    ["Free", 60.001, "mp4", "720p", "length"],
    ["Free", 30, "mp4", "1080p", "quality"],
    ["Free", 30, "mkv", "720p", "format"],
    ["Free", 30, "mp3", "720p", "ok"],
    ["Free", 30, "wav", "720p", "format"],
    ["Basic", 90, "mkv", "1080p", "ok"],
    ["Basic", 91, "mp4", "720p", "length"],
    ["Basic", 30, "mp4", "1440p", "quality"],
    ["Advanced", 120, "webm", "2160p", "ok"],
    ["Advanced", 121, "webm", "720p", "length"],
    ["Pro", 180, "wav", "2160p", "ok"],
    ["Pro", 181, "mp4", "720p", "length"],
    // Length is checked first: the first limit a clip breaks is the one named.
    ["Free", 61, "mkv", "2160p", "length"],
    ["Free", 30, "mkv", "2160p", "quality"],
  ];
  it.each(rows)("%s: %d s of %s at %s → %s", (plan, seconds, format, quality, expected) => {
    const result = checkPlanLimits(plan, { durationSeconds: seconds, format, quality });
    expect(result.ok ? "ok" : result.limit).toBe(expected);
  });

  it.each([
    ["Free", 61, "Upgrade to Basic"],
    ["Free", 100, "Upgrade to Advanced"],
    ["Basic", 150, "Upgrade to Pro"],
  ] as const)("%s over length by %d s names the lowest plan that lifts it (%s)", (plan, seconds, lift) => {
    const result = checkPlanLimits(plan, { durationSeconds: seconds, format: "mp4", quality: "720p" });
    expect(result.ok ? "" : result.message).toContain(lift);
  });

  it("a clip longer than every plan allows names no plan to upgrade to", () => {
    const result = checkPlanLimits("Pro", { durationSeconds: 999, format: "mp4", quality: "720p" });
    expect(result.ok ? "" : result.message).not.toContain("Upgrade");
  });
});

describe("plan buttons and stored plans", () => {
  it.each([
    ["Free", null, "signup", "Get Started"],
    ["Pro", null, "signup", "Sign up to upgrade"],
    ["Basic", "Basic", "current", "Current Plan"],
    ["Pro", "Basic", "upgrade", "Upgrade to Pro"],
    ["Free", "Advanced", "downgrade", "Downgrade to Free"],
    ["Basic", "Pro", "downgrade", "Downgrade to Basic"],
  ] as const)("%s card for a viewer on %s: %s (“%s”)", (target, current, kind, label) => {
    expect(planButton(target, current)).toMatchObject({ kind, label });
  });

  it.each([
    ["Pro", "Pro"],
    ["Plugin", "Free"],
    [null, "Free"],
    [undefined, "Free"],
    ["", "Free"],
    ["pro", "Free"], // stored values are exact; a wrong case is unknown
    ["Enterprise", "Free"],
  ] as const)("stored %s counts as %s", (stored, plan) => {
    expect(effectivePlan(stored)).toBe(plan);
  });
});
