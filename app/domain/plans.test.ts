import { describe, expect, it } from "vitest";
import { COMPARISON_ROWS, PLAN_LIST, PLANS, checkPlanLimits, effectivePlan, planButton, planPrice } from "./plans";

describe("plans", () => {
  it("lists the four plans in order with the spec's prices and credits", () => {
    expect(PLAN_LIST.map((p) => [p.id, p.priceMonthly, p.priceYearly, p.credits])).toEqual([
      ["Free", 0, 0, 100],
      ["Basic", 15, 10, 500],
      ["Advanced", 29, 19, 2000],
      ["Pro", 69, 46, 10000],
    ]);
    expect(planPrice("Pro", "yearly")).toBe(46);
  });

  it("counts Plugin, missing and unknown plans as Free", () => {
    expect(effectivePlan("Plugin")).toBe("Free");
    expect(effectivePlan(null)).toBe("Free");
    expect(effectivePlan("Platinum")).toBe("Free");
    expect(effectivePlan("Advanced")).toBe("Advanced");
  });

  it("labels plan buttons by direction, and sends signed-out visitors to sign up", () => {
    expect(planButton("Basic", "Basic")).toMatchObject({ label: "Current Plan", disabled: true });
    expect(planButton("Pro", "Basic").label).toBe("Upgrade to Pro");
    expect(planButton("Free", "Advanced").label).toBe("Downgrade to Free");
    expect(planButton("Free", null).label).toBe("Get Started");
    expect(planButton("Advanced", null).label).toBe("Sign up to upgrade");
    for (const plan of PLAN_LIST.slice(1)) expect(planButton(plan.id, "Free").label).toBe(`Upgrade to ${plan.name}`);
  });

  it("enforces length, quality and format limits and names the plan that lifts each", () => {
    expect(checkPlanLimits("Free", { durationSeconds: 60, format: "mp4", quality: "720p" })).toEqual({ ok: true });
    const tooLong = checkPlanLimits("Free", { durationSeconds: 61, format: "mp4", quality: "720p" });
    expect(tooLong).toMatchObject({ ok: false, limit: "length" });
    expect(!tooLong.ok && tooLong.message).toContain("Upgrade to Basic");
    const tooSharp = checkPlanLimits("Basic", { durationSeconds: 10, format: "mp4", quality: "2160p" });
    expect(!tooSharp.ok && tooSharp.message).toContain("Upgrade to Advanced");
    const wrongFormat = checkPlanLimits("Free", { durationSeconds: 10, format: "mkv", quality: "720p" });
    expect(wrongFormat).toMatchObject({ ok: false, limit: "format" });
    expect(!wrongFormat.ok && wrongFormat.message).toContain("Upgrade to Basic");
    const beyondPro = checkPlanLimits("Pro", { durationSeconds: 181, format: "mp4", quality: "720p" });
    expect(beyondPro.ok).toBe(false);
    expect(!beyondPro.ok && beyondPro.message).not.toContain("Upgrade");
  });

  it("gives Free a watermark and only MP4, MP3 and GIF; paid plans every format", () => {
    expect(PLANS.Free.watermark).toBe(true);
    expect([...PLANS.Free.formats].sort()).toEqual(["gif", "mp3", "mp4"]);
    expect(PLANS.Basic.formats).toContain("wav");
    expect(PLANS.Advanced.batch && PLANS.Advanced.presets && !PLANS.Basic.batch).toBe(true);
  });

  it("derives the comparison table from the plans", () => {
    const length = COMPARISON_ROWS.find((r) => r.feature === "Max clip length");
    expect(length?.values).toEqual({ Free: "60 s", Basic: "90 s", Advanced: "120 s", Pro: "180 s" });
    for (const row of COMPARISON_ROWS) expect(row.description.length).toBeGreaterThan(10);
  });
});
