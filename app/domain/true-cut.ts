import { z } from "zod";
import { clipFields, withClipRange } from "./clip-request";
import { APPLIED_STRATEGIES, sourceSchema } from "./companion";

/**
 * The true-cut report: what the companion would do for a range on the format it will download, asked before
 * Create (a dry run: nothing is reserved or written). Shared by the companion (parses the request) and the
 * extension (parses the answer).
 */
export const dryRunRequestSchema = withClipRange(
  z
    .object({
      source: sourceSchema,
      startSeconds: clipFields.startSeconds,
      endSeconds: clipFields.endSeconds,
      format: clipFields.format,
      quality: clipFields.quality,
      /** The account's plan adds a watermark (the panel knows it from /api/v1/me): then the clip is re-encoded. */
      watermark: z.boolean().default(false),
      /** Also decode the plan's first and last frames as small JPEGs. */
      thumbnails: z.boolean().default(false),
      /** The clip's options for short videos: a crop or captions re-encode the picture (and say how long it takes). */
      aspect: clipFields.aspect,
      crop: clipFields.crop,
      cropPosition: clipFields.cropPosition,
      captions: clipFields.captions,
    })
    .strict(),
);
export type DryRunRequest = z.input<typeof dryRunRequestSchema>;

const range = z.object({ low: z.number().nonnegative(), high: z.number().nonnegative() });

export const dryRunReportSchema = z.object({
  /** The frame rate of the format the companion will cut (its probe): the panel's frame grid. */
  fps: z.number().positive(),
  width: z.number().int(),
  height: z.number().int(),
  codec: z.string(),
  /** Frame numbers on that grid (frame N starts at N / fps). */
  firstFrame: z.number().int().nonnegative(),
  lastFrame: z.number().int().nonnegative(),
  frameCount: z.number().int().positive(),
  strategy: z.enum(APPLIED_STRATEGIES),
  reason: z.string(),
  startOnKey: z.boolean(),
  /** Frames re-encoded at the start (0 when it starts on a keyframe; all of them for a full re-encode). */
  headFrames: z.number().int().nonnegative(),
  /** Frames re-encoded at the end, after the last copied frame. */
  tailFrames: z.number().int().nonnegative(),
  /** The keyframe at or before the first frame, and the first one after it (null: none within reach). */
  keyBefore: z.number().int().nonnegative(),
  keyAfter: z.number().int().nonnegative().nullable(),
  sizeBytes: range,
  seconds: range,
  /** data:image/jpeg URLs of the plan's first and last frames, decoded by the companion. */
  thumbnails: z.object({ first: z.string(), last: z.string() }).nullable(),
  /**
   * For a crop or captions: the seconds the re-encode takes at this computer's measured encode speed (null when it
   * could not be measured).
   */
  encodeSeconds: z.number().nonnegative().nullable().optional(),
  /** The video's caption tracks (subtitles, then automatic captions), for the panel's list; none for a file. */
  captionTracks: z.array(z.object({ lang: z.string(), name: z.string().optional(), auto: z.boolean() })).optional(),
  /** Whether this companion's ffmpeg can burn captions in (libass); when not, only a subtitle track. */
  libass: z.boolean().optional(),
});
export type DryRunReport = z.infer<typeof dryRunReportSchema>;

/** The report's sentence for the start: "starts on a keyframe: copied" or what is re-encoded. */
export function describeStart(r: DryRunReport): string {
  if (r.strategy === "reencode") {
    const time = typeof r.encodeSeconds === "number" ? `, about ${Math.max(1, Math.round(r.encodeSeconds))} s` : "";
    // A crop or captions: the reason is the sentence ("re-encoded for the crop").
    if (/^re-encoded /.test(r.reason))
      return `${r.reason.charAt(0).toUpperCase()}${r.reason.slice(1)}: all ${r.frameCount} frames${time}.`;
    return `Re-encodes all ${r.frameCount} frames (${r.reason})${time}.`;
  }
  if (r.headFrames === 0) return "Starts on a keyframe: copied.";
  // No keyframe after the first frame: a smart cut re-encodes the whole clip, even from a keyframe.
  if (r.headFrames >= r.frameCount) return `Re-encodes all ${r.frameCount} frames (no keyframe after the first one).`;
  return `Re-encodes the first ${r.headFrames} ${r.headFrames === 1 ? "frame" : "frames"} (${(r.headFrames / r.fps).toFixed(2)} s), then copies.`;
}

/** The report's sentence for the end. */
export function describeEnd(r: DryRunReport): string | null {
  if (r.strategy === "reencode" || r.headFrames >= r.frameCount) return null;
  if (r.tailFrames === 0) return "Ends cleanly: the last frames are copied.";
  return `Re-encodes the last ${r.tailFrames} ${r.tailFrames === 1 ? "frame" : "frames"} (${(r.tailFrames / r.fps).toFixed(2)} s).`;
}
