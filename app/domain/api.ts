import { z } from "zod";
import { ZERO_DURATION_MESSAGE } from "./credits";
import { FORMATS, QUALITIES } from "./media";
import { STORED_PLANS } from "./plans";
import { INVALID_VIDEO_URL, parseHttpUrl } from "./video-link";

/** Wire shapes of API v1, shared by the Worker, the extension, the companion and tests. */

const seconds = z
  .number()
  .finite()
  .min(0)
  .max(24 * 3600);

/** Where a clip comes from: an http(s) URL only (stored URLs are opened by admins and creators). */
export const videoUrlSchema = z
  .string()
  .trim()
  .max(2048, "Video URL is too long (2048 characters at most).")
  .refine((value) => parseHttpUrl(value) !== null, INVALID_VIDEO_URL);

export const clipRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Clip name is required.")
      .max(200, "Clip name is too long (200 characters at most)."),
    videoUrl: videoUrlSchema,
    startSeconds: seconds,
    endSeconds: seconds,
    format: z.enum(FORMATS),
    quality: z.enum(QUALITIES),
  })
  .refine((c) => c.endSeconds > c.startSeconds, {
    message: ZERO_DURATION_MESSAGE,
    path: ["endSeconds"],
  });
export type ClipRequest = z.infer<typeof clipRequestSchema>;

/** Idempotency keys: 8–128 visible ASCII characters chosen by the client (a UUID fits). */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{8,128}$/, "Idempotency-Key must be 8 to 128 visible ASCII characters.");

export const creditsSchema = z.object({
  balance: z.number().int(),
  held: z.number().int(),
  available: z.number().int(),
});
export type Credits = z.infer<typeof creditsSchema>;

export const clipSchema = z.object({
  id: z.string(),
  name: z.string(),
  videoUrl: z.string(),
  startSeconds: z.number(),
  endSeconds: z.number(),
  format: z.enum(FORMATS),
  quality: z.enum(QUALITIES),
  cost: z.number().int(),
  status: z.string(),
  createdAt: z.string(),
});
export type Clip = z.infer<typeof clipSchema>;

export const holdSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  expiresAt: z.string(),
});

export const createClipResponseSchema = z.object({ clip: clipSchema, credits: creditsSchema });
export const createHoldResponseSchema = z.object({ hold: holdSchema, credits: creditsSchema });
export const captureHoldResponseSchema = z.object({ clip: clipSchema, credits: creditsSchema });
export const releaseHoldResponseSchema = z.object({ credits: creditsSchema });

export const meResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    fullName: z.string(),
    plan: z.enum(STORED_PLANS),
    role: z.enum(["user", "admin"]),
  }),
  credits: creditsSchema,
  limits: z.object({
    maxClipSeconds: z.number(),
    maxQuality: z.enum(QUALITIES),
    formats: z.array(z.enum(FORMATS)),
    watermark: z.boolean(),
    batch: z.boolean(),
    presets: z.boolean(),
  }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export const API_ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "insufficient_credits",
  "plan_limit",
  "forbidden",
  "not_found",
  "idempotency_conflict",
  "hold_not_active",
  "invalid_input",
  "rate_limited",
  "busy",
  "internal",
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Hold lifetime: an uncaptured reservation is released after this long. */
export const HOLD_TTL_MS = 15 * 60 * 1000;

/** A custom preset: a name, a format, a quality and an optional clip length in seconds. */
export const presetRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Preset name is required.")
    .max(60, "Preset name is too long (60 characters at most)."),
  format: z.enum(FORMATS),
  quality: z.enum(QUALITIES),
  clipSeconds: z.number().finite().positive().max(3600).nullable().optional(),
});
export type PresetRequest = z.infer<typeof presetRequestSchema>;

export const presetSchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(FORMATS),
  quality: z.enum(QUALITIES),
  clipSeconds: z.number().nullable(),
  createdAt: z.string(),
});
export type Preset = z.infer<typeof presetSchema>;
export const presetsResponseSchema = z.object({ presets: z.array(presetSchema) });
export const createPresetResponseSchema = z.object({ preset: presetSchema });
