import { describe, expect, it } from "vitest";
import { analyticsBuckets } from "./analytics";

describe("analyticsBuckets", () => {
  it("labels months with the full year, so a month never reads like a day", () => {
    const now = Date.UTC(2026, 10, 23);
    const labels = analyticsBuckets("12m", now, null).map((b) => b.label);
    expect(labels[0]).toBe("Dec 2025");
    expect(labels.at(-1)).toBe("Nov 2026");
  });
});
