import { z } from "zod";
import { captionsSchema, clipFields, clipOptionsError, withClipRange } from "./clip-request";
import { ASPECTS, cropPositionSchema } from "./crop";
import { FORMATS, QUALITIES } from "./media";
import { STORED_PLANS } from "./plans";

/** Wire shapes of API v1, shared by the Worker, the extension, the companion and tests. */

export { videoUrlSchema } from "./clip-request";

/** A clip for the API (POST /clips and /holds): the one clip request, range rule included. */
export const clipRequestSchema = withClipRange(z.object(clipFields));
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
  /** Original, or the aspect it was cropped to, and where the crop sat (a fraction of the free room). */
  aspect: z.enum(ASPECTS),
  cropPosition: z.number().nullable(),
  captions: captionsSchema.nullable(),
});
export type Clip = z.infer<typeof clipSchema>;

export const holdSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  expiresAt: z.string(),
});

export const createClipResponseSchema = z.object({ clip: clipSchema, credits: creditsSchema });
/**
 * A hold for a companion job: the clip with the quality asked (optional) and the height of the source the companion
 * resolved (null without a picture). The server decides the terms (clipTerms) and answers them with the hold; a
 * request without `sourceHeight` is a plain clip request (quality required), as before.
 */
export const holdRequestSchema = withClipRange(
  z.object({
    ...clipFields,
    quality: z.enum(QUALITIES).optional(),
    sourceHeight: z.number().int().positive().max(100_000).nullable().optional(),
    /** The source's width beside its height: a portrait picture, or a crop, is priced by its short side. */
    sourceWidth: z.number().int().positive().max(100_000).nullable().optional(),
  }),
).superRefine((r, ctx) => {
  if (r.sourceHeight === undefined && r.quality === undefined)
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "quality is required.", path: ["quality"] });
});
export type HoldRequest = z.infer<typeof holdRequestSchema>;

export const clipTermsSchema = z.object({
  quality: z.enum(QUALITIES),
  scaleTo: z.enum(QUALITIES).nullable(),
  watermark: z.boolean(),
  requested: z.enum(QUALITIES).nullable(),
});

export const createHoldResponseSchema = z.object({ hold: holdSchema, credits: creditsSchema, terms: clipTermsSchema });
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
    /** Clips that may be in flight at once (open holds). */
    maxOpenHolds: z.number().int().positive(),
  }),
  /**
   * A member of an active Pro team: `credits`, `limits` and `user.plan` are the team's (the owner's account);
   * `usage` is the member's own this period. Absent or null for everyone else.
   */
  team: z
    .object({
      ownerName: z.string(),
      role: z.enum(["owner", "member"]),
      ownPlan: z.enum(STORED_PLANS),
      usage: z.object({ clips: z.number(), credits: z.number() }),
    })
    .nullish(),
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
  // `reason`: a ledger refusal's finer code (`LEDGER_REFUSALS`); clients branch on `code` or `reason`, never on
  // `message`, which is for people.
  error: z.object({ code: z.string(), reason: z.string().optional(), message: z.string() }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Hold lifetime: an uncaptured reservation is released after this long. */
export const HOLD_TTL_MS = 15 * 60 * 1000;

/**
 * A custom preset: a name, a format, a quality, an optional clip length in seconds, and the short-video options
 * (aspect, crop position as a fraction of the free room, captions) with the clip request's rules.
 */
export const presetRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Preset name is required.")
      .max(60, "Preset name is too long (60 characters at most)."),
    format: z.enum(FORMATS),
    quality: z.enum(QUALITIES),
    clipSeconds: z.number().finite().positive().max(3600).nullable().optional(),
    aspect: clipFields.aspect,
    cropPosition: cropPositionSchema.nullable().optional(),
    captions: clipFields.captions,
  })
  .superRefine((p, ctx) => {
    const error = clipOptionsError(p);
    if (error) ctx.addIssue({ code: z.ZodIssueCode.custom, message: error.message, path: [error.path] });
  });
export type PresetRequest = z.infer<typeof presetRequestSchema>;

export const presetSchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(FORMATS),
  quality: z.enum(QUALITIES),
  clipSeconds: z.number().nullable(),
  aspect: z.enum(ASPECTS),
  cropPosition: z.number().nullable(),
  captions: captionsSchema.nullable(),
  createdAt: z.string(),
});
export type Preset = z.infer<typeof presetSchema>;
export const presetsResponseSchema = z.object({ presets: z.array(presetSchema) });
export const createPresetResponseSchema = z.object({ preset: presetSchema });
