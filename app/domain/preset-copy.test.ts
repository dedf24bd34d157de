import { describe, expect, it } from "vitest";
import { presetRequestSchema } from "./api";
import { FEATURES } from "./features";
import { COMPARISON_ROWS } from "./plans";
import { MAX_PRESETS } from "./presets";

/** The word the copy uses for each setting a preset stores (a new stored field must be named here, and sold). */
const WORDS: Record<string, string> = {
  format: "format",
  quality: "quality",
  clipSeconds: "length",
  aspect: "aspect",
  cropPosition: "crop position",
  captions: "captions",
};

const presetCopy = () => {
  const row = COMPARISON_ROWS.find((r) => r.feature === "Custom Presets");
  const feature = FEATURES.find((f) => f.id === "presets");
  if (!row || !feature) throw new Error("the presets copy is gone");
  return { pricing: row.description, features: [feature.summary, feature.details, ...feature.highlights].join(" ") };
};

describe("the presets copy says what a preset is", () => {
  const stored = Object.keys(presetRequestSchema.innerType().shape).filter((key) => key !== "name");

  it.each(["pricing", "features"] as const)("%s names every stored setting and nothing that is not stored", (page) => {
    const text = presetCopy()[page].toLowerCase();
    for (const key of stored) expect(text, key).toContain(WORDS[key]);
    expect(text).not.toMatch(/cut mode|smart cut|trim mode/);
  });

  it.each(["pricing", "features"] as const)("%s states the preset limit, never “as many as you need”", (page) => {
    const text = presetCopy()[page];
    expect(text).toContain(String(MAX_PRESETS));
    expect(text).not.toMatch(/as many|unlimited|no limit/i);
  });
});
