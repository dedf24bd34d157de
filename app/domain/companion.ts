import { z } from "zod";
import { creditsSchema } from "./api";
import { clipFields, withClipRange } from "./clip-request";
import { FORMATS } from "./media";

/**
 * Wire shapes of the local companion (the clip engine on 127.0.0.1), shared by the companion and the extension.
 * Every request body the companion accepts is parsed with one of these schemas.
 */

/** "auto" picks copy when the cut is keyframe-aligned, smart when it can, re-encode when it must. */
export const CUT_STRATEGIES = ["auto", "copy", "smart", "reencode"] as const;
export type CutStrategy = (typeof CUT_STRATEGIES)[number];
export const APPLIED_STRATEGIES = ["copy", "smart", "reencode"] as const;
export type AppliedStrategy = (typeof APPLIED_STRATEGIES)[number];

/** Pairing tokens are 32 random bytes, base64url (256 bits; the floor is 128). */
export const PAIRING_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const PAIRING_HEADER = "authorization";

/**
 * A file name chosen by the caller: a bare name inside the output folder, never a path.
 * The extension is added by the companion from the format.
 */
/**
 * Names Windows keeps for devices: "CON", "nul.txt" or "COM1.tar.gz" open the device, not a file (the part before
 * the first dot counts, trailing spaces ignored; ¹²³ count as digits there too).
 */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)\s*(\..*)?$/i;

export function isWindowsDeviceName(name: string): boolean {
  return WINDOWS_DEVICE_NAME.test(name.trim());
}

export const outputFileNameSchema = z
  .string()
  .trim()
  .min(1, "File name must not be empty.")
  .max(150, "File name is too long (150 characters at most).")
  .refine((name) => !/[/\\]/.test(name), "File name must not contain / or \\ (no folders).")
  .refine((name) => !name.includes(".."), "File name must not contain '..'.")
  .refine((name) => !name.startsWith("."), "File name must not start with a dot.")
  .refine((name) => !isWindowsDeviceName(name), "File name is a device name on Windows (CON, NUL, COM1…).")
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\x00-\x1f<>:"|?*]/.test(name), "File name contains characters that are not allowed.");

/** A direct media URL (http/https), a video page URL (resolved with yt-dlp) or an absolute local path. */
export const sourceSchema = z
  .string()
  .trim()
  .min(1, "Source is required.")
  .max(4096, "Source is too long.")
  .refine(
    (s) => /^https?:\/\//i.test(s) || s.startsWith("/") || /^[A-Za-z]:[\\/]/.test(s),
    "Source must be an http(s) URL or an absolute file path.",
  );

/** The one clip request, with the source to read; name, page, format and quality have defaults here. */
const clipJobFields = {
  source: sourceSchema,
  /** Clip name for the account's clip list and the file name. */
  name: clipFields.name.optional(),
  /** The page the clip comes from, reported to the API (defaults to the source when it is a URL). */
  videoUrl: clipFields.videoUrl.optional(),
  startSeconds: clipFields.startSeconds,
  endSeconds: clipFields.endSeconds,
  format: clipFields.format.optional(),
  quality: clipFields.quality.optional(),
  aspect: clipFields.aspect,
  crop: clipFields.crop,
  cropPosition: clipFields.cropPosition,
  captions: clipFields.captions,
  strategy: z.enum(CUT_STRATEGIES).optional(),
  /** Accept a copy cut that starts on the keyframe before startSeconds. */
  allowSnap: z.boolean().optional(),
  fileName: outputFileNameSchema.optional(),
};

export const LOCAL_SOURCE_NEEDS_VIDEO_URL =
  "A local file needs videoUrl: the http(s) page the video came from, recorded with the clip.";

export const clipJobRequestSchema = withClipRange(z.object(clipJobFields).strict())
  // The account's clip list records where a clip came from as an http(s) link; a local path is never sent.
  .refine((c) => c.videoUrl !== undefined || /^https?:\/\//i.test(c.source), {
    message: LOCAL_SOURCE_NEEDS_VIDEO_URL,
    path: ["videoUrl"],
  });
export type ClipJobRequest = z.infer<typeof clipJobRequestSchema>;

/** Many clips from one or many sources. */
export const batchRequestSchema = z
  .object({ jobs: z.array(clipJobRequestSchema).min(1, "A batch needs at least one clip.").max(100) })
  .strict();
export type BatchRequest = z.infer<typeof batchRequestSchema>;

/** The extension hands over the user's API token; the companion keeps it in memory only. */
export const sessionRequestSchema = z
  .object({
    apiToken: z.string().trim().min(8, "API token is too short.").max(4096),
    apiBaseUrl: z
      .string()
      .trim()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), "API base URL must be http or https.")
      .optional(),
  })
  .strict();
export type SessionRequest = z.infer<typeof sessionRequestSchema>;

export const JOB_STATUSES = ["queued", "reserving", "running", "verifying", "done", "failed", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const cutResultSchema = z.object({
  output: z.string(),
  strategy: z.enum(APPLIED_STRATEGIES),
  format: z.enum(FORMATS),
  requestedStartSeconds: z.number(),
  requestedEndSeconds: z.number(),
  /** What the file really holds, in source time. */
  startSeconds: z.number(),
  endSeconds: z.number(),
  durationSeconds: z.number(),
  /** True when a copy cut started on the keyframe before the requested start. */
  snapped: z.boolean(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  frames: z.number().int().nullable(),
  watermark: z.boolean(),
  sizeBytes: z.number().int(),
  elapsedSeconds: z.number(),
  /** Why this strategy was applied, e.g. "vp9 cannot be joined safely; full re-encode" when auto fell back. */
  reason: z.string().optional(),
  /** Picture height of the source stream used (for page URLs: the format picked; never upscaled). */
  sourceHeight: z.number().int().nullable().optional(),
  /** Things the user should know about the result (e.g. the video has nothing as tall as asked). */
  notes: z.array(z.string()).optional(),
});
export type CutResult = z.infer<typeof cutResultSchema>;

export const progressSchema = z.object({
  percent: z.number().min(0).max(100),
  /** Media seconds processed per wall-clock second (ffmpeg's "speed"), null before the first report. */
  speed: z.number().nullable(),
  etaSeconds: z.number().nullable(),
});
export type Progress = z.infer<typeof progressSchema>;

export const jobErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** HTTP status of an API refusal (402 insufficient credits, 403 plan limit), when there was one. */
  status: z.number().int().optional(),
});
export type JobError = z.infer<typeof jobErrorSchema>;

export const jobSchema = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  request: z.object(clipJobFields),
  progress: progressSchema,
  result: cutResultSchema.nullable(),
  error: jobErrorSchema.nullable(),
  /** Credits flow: reserved → captured, or released. */
  credits: z.object({
    holdId: z.string().nullable(),
    amount: z.number().int().nullable(),
    state: z.enum(["none", "reserved", "captured", "released", "capture_failed"]),
    /**
     * The paying account's credits as the capture answered them: the panel shows the new balance from here at once,
     * without asking /api/v1/me and without waiting for the site's realtime socket. Absent before the capture (and
     * from companions older than this field).
     */
    after: creditsSchema.optional(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Job = z.infer<typeof jobSchema>;

/** Pushed over Server-Sent Events (GET /events) and WebSocket (GET /ws). */
export const companionEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("job"), job: jobSchema }),
  z.object({ type: z.literal("progress"), jobId: z.string(), progress: progressSchema }),
]);
export type CompanionEvent = z.infer<typeof companionEventSchema>;

export const healthResponseSchema = z.object({
  name: z.literal("clipcut-companion"),
  version: z.string(),
  ffmpeg: z.string(),
  ytDlp: z.string().nullable(),
  /** Set when yt-dlp is older than 90 days (its version is a date), with how to update it. */
  ytDlpWarning: z.string().nullable().optional(),
  session: z.boolean(),
  outputDir: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
