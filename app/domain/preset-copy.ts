/**
 * What a custom preset keeps and how many an account may keep: the rule and the words that sell it, once. It
 * imports nothing, so the plan table (./plans) and the features (./features) can use it without a cycle.
 */
export const MAX_PRESETS = 50;

/**
 * The settings a preset stores (presetRequestSchema in ./api: format, quality, an optional clip length, and the
 * short-video options: aspect, crop position and captions).
 */
export const PRESET_SETTINGS = "format, quality, clip length, aspect, crop position and captions";

export const PRESET_COPY = {
  /** The pricing table's row. */
  comparison: `Save named combinations of ${PRESET_SETTINGS} and reuse them in one click (up to ${MAX_PRESETS}).`,
  /** The landing page card and /features. */
  summary: `Save your favourite ${PRESET_SETTINGS} as a preset and reuse it with one click.`,
  highlights: [`Save ${PRESET_SETTINGS}`, "One click to reuse", `Up to ${MAX_PRESETS} presets per account`],
} as const;
