import { AUDIO_QUALITY } from "./clip-request";
import { isAudioFormat, QUALITIES, qualityHeight, type Format, type Quality } from "./media";

/**
 * Which picture size a clip is fetched, cut and charged at. One policy for the companion (and anything else that
 * cuts): never upscale, a plan's maximum caps an unasked quality instead of refusing it, GIFs default to 480p,
 * and audio has the one AUDIO_QUALITY.
 */

/** A GIF without an asked quality is made at this height (larger GIFs are huge and rarely wanted). */
export const GIF_DEFAULT_QUALITY: Quality = "480p";

/** The label of the largest quality not above the source height (what the file will really be). */
export function effectiveQuality(requested: Quality | undefined, sourceHeight: number | null): Quality {
  const fits = QUALITIES.filter((q) => sourceHeight === null || qualityHeight(q) <= sourceHeight);
  const best = fits[fits.length - 1] ?? QUALITIES[0];
  if (!requested) return best;
  return qualityHeight(requested) <= qualityHeight(best) ? requested : best;
}

/**
 * The quality a source can be fetched at before the account is known (so resolving runs beside the account
 * check), or null when it depends on the plan's maximum.
 */
export function fetchQualityBeforeAccount(format: Format, asked: Quality | undefined): Quality | null {
  if (isAudioFormat(format)) return AUDIO_QUALITY;
  return asked ?? (format === "gif" ? GIF_DEFAULT_QUALITY : null);
}

export interface QualityDecision {
  /** Recorded with the clip and charged. */
  charged: Quality;
  /** The height the cut scales to, or null to keep the source's size. */
  scaleTo: Quality | null;
  /** What the user asked for (for the "this video is at most …p" note), null for audio. */
  requested: Quality | null;
}

/** Decides the clip's quality once the source's height and the plan's maximum are known. */
export function decideQuality(o: {
  format: Format;
  asked: Quality | undefined;
  planMax: Quality;
  sourceHeight: number | null;
}): QualityDecision {
  if (isAudioFormat(o.format)) return { charged: AUDIO_QUALITY, scaleTo: null, requested: null };
  // No quality asked: the source's, capped at the plan's maximum (a Free user gets 720p, not a refusal).
  const planCap = o.sourceHeight !== null && qualityHeight(o.planMax) < o.sourceHeight ? o.planMax : undefined;
  const wanted = o.asked ?? (o.format === "gif" ? GIF_DEFAULT_QUALITY : planCap);
  const charged = effectiveQuality(wanted, o.sourceHeight);
  // A picture is kept whole unless the wanted quality is smaller, whatever its height: a 1920x800 video asked at
  // 1080p stays 1920x800 and a 9:16 box of a 1080p video (608x1080) stays 608x1080, each priced as the tier it reaches
  // (720p, 480p), not shrunk to it (asking more than the source has must not give less than asking nothing).
  if (wanted && o.sourceHeight !== null && qualityHeight(wanted) >= o.sourceHeight) {
    return { charged, scaleTo: null, requested: o.asked ?? null };
  }
  return { charged, scaleTo: wanted ? charged : null, requested: o.asked ?? null };
}

/** What a cut is made with: the quality charged, the height it scales to, the watermark. */
export interface ClipTerms {
  quality: Quality;
  scaleTo: Quality | null;
  watermark: boolean;
  /** What the user asked for, null when nothing was asked (or for audio). */
  requested: Quality | null;
}

/**
 * The terms of one clip, decided once where the hold is made (POST /api/v1/holds): the quality policy above on the
 * plan's limits, and the plan's watermark on pictures. The companion cuts with exactly these.
 */
export function clipTerms(o: {
  format: Format;
  asked: Quality | undefined;
  sourceHeight: number | null;
  limits: { maxQuality: Quality; watermark: boolean };
}): ClipTerms {
  const decided = decideQuality({ ...o, planMax: o.limits.maxQuality });
  return {
    quality: decided.charged,
    scaleTo: decided.scaleTo,
    watermark: o.limits.watermark && !isAudioFormat(o.format),
    requested: decided.requested,
  };
}
