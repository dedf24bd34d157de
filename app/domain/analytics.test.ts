import { describe, expect, it } from "vitest";
import { analyticsBuckets, areaSeries } from "./analytics";

describe("analyticsBuckets", () => {
  it("labels months with the full year, so a month never reads like a day", () => {
    const now = Date.UTC(2026, 10, 23);
    const labels = analyticsBuckets("12m", now, null).map((b) => b.label);
    expect(labels[0]).toBe("Dec 2025");
    expect(labels.at(-1)).toBe("Nov 2026");
  });
});

describe("areaSeries (spec: bars, or an area for clips above 30 buckets)", () => {
  it("draws only the clips series as an area, and only above 30 buckets", () => {
    expect(areaSeries("Clips Created", 30)).toEqual([]);
    expect(areaSeries("Clips Created", 31)).toEqual(["Clips Created"]);
  });
  it("keeps stacked daily activity as bars, in 31-day months too", () => {
    expect(areaSeries("Clips Created", 31, true)).toEqual([]);
  });
});
