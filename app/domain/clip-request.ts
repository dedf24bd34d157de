import { z } from "zod";
import {
  ASPECTS,
  cropPositionSchema,
  cropSchema,
  DEFAULT_CROP_POSITION,
  isCropAspect,
  positionOf,
  type Aspect,
  type Crop,
} from "./crop";
import { ZERO_DURATION_MESSAGE } from "./credits";
import { FORMATS, isAudioFormat, QUALITIES, type Format, type Quality } from "./media";
import { INVALID_VIDEO_URL, parseHttpUrl } from "./video-link";

/**
 * The one clip request (name, video URL, range, format, quality) and its rules. Every boundary that takes one —
 * the API and holds, the admin modal, the site → extension message, the extension's own messages and the
 * companion's jobs — builds on `clipFields` and `withClipRange`, so they cannot disagree again.
 *
 * The options for short videos (aspect, crop, captions) are optional everywhere: a request without them is an
 * Original clip without captions, as every older client sends.
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

/** Burned into the picture, or a subtitle track of the file. */
export const CAPTION_MODES = ["burn", "soft"] as const;
export type CaptionMode = (typeof CAPTION_MODES)[number];
export const CAPTION_MODE_LABELS: Record<CaptionMode, string> = { burn: "burned in", soft: "subtitle track" };

/** Formats that carry a subtitle track (mov_text in MP4 and MOV, WebVTT in WebM and MKV). */
export const SOFT_CAPTION_FORMATS = ["mp4", "mov", "mkv", "webm"] as const satisfies readonly Format[];

export const CAPTIONS_NEED_PICTURE = "Audio clips have no picture: they take no aspect and no captions.";
export const SOFT_CAPTIONS_FORMAT =
  "A subtitle track needs MP4, MOV, MKV or WebM: burn the captions in for GIF and AVI.";
export const CROP_NEEDS_ASPECT = "A crop needs an aspect other than Original.";
export const CROP_ASPECT_DIFFERS = "The crop's aspect must be the clip's aspect.";
export const CROP_AND_POSITION = "Send the crop or its position, not both.";

/**
 * A caption track by its id as the video site names it: a language code ("en", "pt-BR", "zh-Hans") or yt-dlp's
 * variants of one ("en-orig", "live_chat").
 */
export const captionTrackSchema = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "Caption track must be a language code such as en or pt-BR (letters, digits, . _ -; 64 at most).",
  );

/** The captions a clip carries, or null for none. */
export const captionsSchema = z
  .object({
    track: captionTrackSchema,
    mode: z.enum(CAPTION_MODES),
    /** An .srt file beside the clip as well. */
    srt: z.boolean().optional(),
  })
  .strict();
export type Captions = z.infer<typeof captionsSchema>;

export const clipFields = {
  name: clipNameSchema,
  videoUrl: videoUrlSchema,
  startSeconds: clipSecondsSchema,
  endSeconds: clipSecondsSchema,
  format: z.enum(FORMATS),
  quality: z.enum(QUALITIES),
  /** Original (no crop) when absent. */
  aspect: z.enum(ASPECTS).optional(),
  /** The crop in source pixels, when the sender knows the frame (the panel); checked by cropSchema. */
  crop: cropSchema.nullable().optional(),
  /** Where the crop sits without a frame (the /clip page, a preset, the API): the centre when absent. */
  cropPosition: cropPositionSchema.nullable().optional(),
  captions: captionsSchema.nullable().optional(),
};

interface ClipOptions {
  format?: Format;
  aspect?: Aspect;
  crop?: { aspect: Aspect } | null;
  cropPosition?: number | null;
  captions?: Captions | null;
}

/** Null when the aspect, crop and captions of a request agree with each other and its format, else why not. */
export function clipOptionsError(c: ClipOptions): { message: string; path: string } | null {
  const aspect = c.aspect ?? "original";
  const audio = c.format !== undefined && isAudioFormat(c.format);
  if (audio && (isCropAspect(aspect) || c.captions)) return { message: CAPTIONS_NEED_PICTURE, path: "format" };
  if (c.crop && c.cropPosition != null) return { message: CROP_AND_POSITION, path: "cropPosition" };
  if ((c.crop || c.cropPosition != null) && !isCropAspect(aspect))
    return { message: CROP_NEEDS_ASPECT, path: "aspect" };
  if (c.crop && c.crop.aspect !== aspect) return { message: CROP_ASPECT_DIFFERS, path: "crop" };
  if (
    c.captions?.mode === "soft" &&
    c.format !== undefined &&
    !(SOFT_CAPTION_FORMATS as readonly string[]).includes(c.format)
  )
    return { message: SOFT_CAPTIONS_FORMAT, path: "captions" };
  return null;
}

/**
 * Null when [start, end) is a valid clip range, else why not: the spec's "greater than zero" text when the end is
 * not after the start, the 0.1 s minimum otherwise. A micro-tolerance absorbs float noise (10.1 − 10).
 */
export function clipRangeError(startSeconds: number, endSeconds: number): string | null {
  const length = endSeconds - startSeconds;
  if (!(length > 0)) return ZERO_DURATION_MESSAGE;
  return length >= MIN_CLIP_SECONDS - 1e-9 ? null : CLIP_TOO_SHORT_MESSAGE;
}

/** What a clip record (and a preset) keeps of the options: the aspect, where the crop sat, the captions. */
export interface ClipOptionsRecord {
  aspect: Aspect;
  /** A fraction of the free room (0 left or top, 1 right or bottom); null for Original. */
  cropPosition: number | null;
  captions: Captions | null;
}

/** The record of a request's options: Original and no captions when absent; a pixel crop kept as its position. */
export function clipOptionsRecord(c: {
  aspect?: Aspect;
  crop?: Crop | null;
  cropPosition?: number | null;
  captions?: Captions | null;
}): ClipOptionsRecord {
  const aspect = c.crop?.aspect ?? c.aspect ?? "original";
  if (!isCropAspect(aspect)) return { aspect, cropPosition: null, captions: c.captions ?? null };
  const cropPosition = c.crop
    ? positionOf({ width: c.crop.sourceWidth, height: c.crop.sourceHeight }, c.crop)
    : (c.cropPosition ?? DEFAULT_CROP_POSITION);
  return { aspect, cropPosition, captions: c.captions ?? null };
}

/** Words for captions in a list or a clip's page: "None", "en, burned in", "pt-BR, subtitle track, .srt". */
export function describeCaptions(captions: Captions | null | undefined): string {
  if (!captions) return "None";
  return [captions.track, CAPTION_MODE_LABELS[captions.mode], ...(captions.srt ? [".srt"] : [])].join(", ");
}

/**
 * Adds the range rule to an object schema with startSeconds and endSeconds (the issue lands on endSeconds), and,
 * where the schema has them, the agreement of aspect, crop, captions and format (clipOptionsError).
 */
export function withClipRange<T extends z.ZodType<Range, z.ZodTypeDef, unknown>>(
  schema: T,
): z.ZodEffects<T, z.output<T>, z.input<T>> {
  return z.ZodEffects.create(schema, {
    type: "refinement",
    refinement: (c: Range, ctx) => {
      const error = clipRangeError(c.startSeconds, c.endSeconds);
      if (error) ctx.addIssue({ code: z.ZodIssueCode.custom, message: error, path: ["endSeconds"] });
      const options = clipOptionsError(c);
      if (options) ctx.addIssue({ code: z.ZodIssueCode.custom, message: options.message, path: [options.path] });
    },
  });
}

interface Range extends ClipOptions {
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
