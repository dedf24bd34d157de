import { z } from "zod";
import { ZERO_DURATION_MESSAGE } from "./credits";
import { FORMATS, isAudioFormat, QUALITIES, type Format, type Quality } from "./media";
import { INVALID_VIDEO_URL, parseHttpUrl } from "./video-link";

/**
 * The one clip request (name, video URL, range, format, quality) and its rules. Every boundary that takes one —
 * the API and holds, the admin modal, the site → extension message, the extension's own messages and the
 * companion's jobs — builds on `clipFields` and `withClipRange`, so they cannot disagree again.
 */

/** The spec's minimum gap between start and end. */
export const MIN_CLIP_SECONDS = 0.1;
/** Start and end lie within the first 24 hours of a video. */
export const MAX_CLIP_TIMESTAMP_SECONDS = 24 * 3600;
export const CLIP_TOO_SHORT_MESSAGE = `Clip duration must be at least ${MIN_CLIP_SECONDS} seconds.`;

export const clipSecondsSchema = z
  .number()
  .finite()
  .min(0, "Times must not be negative.")
  .max(MAX_CLIP_TIMESTAMP_SECONDS, "Times must be within the first 24 hours of the video.");

export const clipNameSchema = z
  .string()
  .trim()
  .min(1, "Clip name is required.")
  .max(200, "Clip name is too long (200 characters at most).");

/** Where a clip comes from: an http(s) URL without credentials only (stored URLs are opened by admins and creators). */
export const videoUrlSchema = z
  .string()
  .trim()
  .max(2048, "Video URL is too long (2048 characters at most).")
  .refine((value) => parseHttpUrl(value) !== null, INVALID_VIDEO_URL);

export const clipFields = {
  name: clipNameSchema,
  videoUrl: videoUrlSchema,
  startSeconds: clipSecondsSchema,
  endSeconds: clipSecondsSchema,
  format: z.enum(FORMATS),
  quality: z.enum(QUALITIES),
};

/**
 * Null when [start, end) is a valid clip range, else why not: the spec's "greater than zero" text when the end is
 * not after the start, the 0.1 s minimum otherwise. A micro-tolerance absorbs float noise (10.1 − 10).
 */
export function clipRangeError(startSeconds: number, endSeconds: number): string | null {
  const length = endSeconds - startSeconds;
  if (!(length > 0)) return ZERO_DURATION_MESSAGE;
  return length >= MIN_CLIP_SECONDS - 1e-9 ? null : CLIP_TOO_SHORT_MESSAGE;
}

/** Adds the range rule to an object schema with startSeconds and endSeconds (the issue lands on endSeconds). */
export function withClipRange<T extends z.ZodType<Range, z.ZodTypeDef, unknown>>(
  schema: T,
): z.ZodEffects<T, z.output<T>, z.input<T>> {
  return z.ZodEffects.create(schema, {
    type: "refinement",
    refinement: (c: Range, ctx) => {
      const error = clipRangeError(c.startSeconds, c.endSeconds);
      if (error) ctx.addIssue({ code: z.ZodIssueCode.custom, message: error, path: ["endSeconds"] });
    },
  });
}

interface Range {
  startSeconds: number;
  endSeconds: number;
}

/**
 * Audio clips have no picture size: every party records, charges and resolves them at this one quality
 * (the price of an audio clip does not depend on it; see clipCost).
 */
export const AUDIO_QUALITY: Quality = "144p";

/** The quality a clip is recorded and charged at: the asked one for pictures, AUDIO_QUALITY for sound. */
export function clipQuality(format: Format, quality: Quality): Quality {
  return isAudioFormat(format) ? AUDIO_QUALITY : quality;
}
