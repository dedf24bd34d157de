/**
 * What a batch is and how big it may be: the rule and the words that sell it, once. A batch is several ranges of
 * the video open in the tab, marked in the extension's panel and cut together by the companion; nothing batches
 * clips of different videos, so no copy may promise that. It imports nothing, so the plan table (./plans), the
 * features (./features) and the extension can all use it.
 */

/** Clips in flight at once (open holds) on a plan with batch processing. */
export const BATCH_MAX_HOLDS = 10;

export const BATCH_COPY = {
  /** The pricing table's row (its tooltip). */
  comparison: `Mark up to ${BATCH_MAX_HOLDS} ranges of the video you are watching and cut them together in one go.`,
  /** The landing page card and /features. */
  summary:
    "Mark several moments of the video you are watching and let ClipCut cut them together while you keep working.",
  details:
    "Mark all the moments you need from a stream or a long interview, then export them in one go. ClipCut cuts them on your own computer, so a long batch does not wait on an upload or a remote server.",
  highlights: [
    `Up to ${BATCH_MAX_HOLDS} ranges of one video at once`,
    "Processed locally on your computer",
    "Keep working while it runs",
  ],
  /** The extension's panel: the button that adds the current range. */
  addRange: "Add this range to the batch",
  /** The extension's panel: the account's own limit (`maxOpenHolds` from /api/v1/me), under the button. */
  rule: (max: number, full: boolean) =>
    full
      ? `The batch is full: your plan cuts up to ${max} ranges of this video at once.`
      : `Up to ${max} ranges of this video at once on your plan.`,
} as const;
