import { describe, expect, it } from "vitest";
import { FEATURES } from "./features";
import { BATCH_MAX_HOLDS, COMPARISON_ROWS } from "./plans";

/** The extension batches ranges of the video open in the tab: the site must sell that, not clips of many videos. */
const batchCopy = () => {
  const row = COMPARISON_ROWS.find((r) => r.feature === "Batch Processing");
  const feature = FEATURES.find((f) => f.id === "batch");
  if (!row || !feature) throw new Error("the batch copy is gone");
  return { pricing: row.description, features: [feature.summary, feature.details, ...feature.highlights].join(" ") };
};

describe("the batch copy says what a batch is", () => {
  it.each(["pricing", "features"] as const)("%s never promises clips of several videos in one batch", (page) => {
    const text = batchCopy()[page];
    expect(text).not.toMatch(/\b(one or )?(many|several|multiple|other|different|any)\s+videos\b/i);
    expect(text).toMatch(/the video you are watching|one video/i);
  });

  it("the pricing tooltip states how many ranges a batch holds", () => {
    expect(batchCopy().pricing).toContain(`${BATCH_MAX_HOLDS} ranges`);
  });
});
