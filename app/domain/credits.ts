import { isAudioFormat, type Format, type Quality } from "./media";

/**
 * Credits per second of clip, as fractions so that e.g. 30 s × 0.1 is exactly 3, not 3.0000000000000004.
 * Audio and ≤ 480p: 1/30; 720p 0.1; 1080p 0.2; 1440p 0.3; 2160p 0.4 (GIF priced at its quality).
 */
const RATE: Record<Quality, [numerator: number, denominator: number]> = {
  "144p": [1, 30],
  "240p": [1, 30],
  "360p": [1, 30],
  "480p": [1, 30],
  "720p": [1, 10],
  "1080p": [2, 10],
  "1440p": [3, 10],
  "2160p": [4, 10],
};

export const NEW_USER_CREDITS = 100;
export const PLUGIN_CONNECT_CREDITS = 1;
export const INSUFFICIENT_CREDITS_MESSAGE = "You do not have enough credits to create this clip.";
export const ZERO_DURATION_MESSAGE = "Clip duration must be greater than zero.";

/** ceil(duration × rate), at least 1 for any positive duration, 0 otherwise. */
export function clipCost(durationSeconds: number, format: Format, quality: Quality): number {
  if (!(durationSeconds > 0) || !Number.isFinite(durationSeconds)) return 0;
  const [num, den] = isAudioFormat(format) ? [1, 30] : RATE[quality];
  // Round away float noise at the millionth before taking the ceiling.
  const exact = Math.round(((durationSeconds * num) / den) * 1e6) / 1e6;
  return Math.max(1, Math.ceil(exact));
}

/** /credits when its history cannot be read: the rest of the page still shows (spec K16). */
export const CREDIT_HISTORY_FAILED_MESSAGE =
  "Your credit history could not be loaded. Please reload the page to try again.";
