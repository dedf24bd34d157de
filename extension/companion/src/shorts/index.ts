/** Clips for Shorts, Reels and TikTok: crop, captions and the mark in one re-encode (see command.ts). */
export {
  canCarrySoftCaptions,
  cuesOnClip,
  shortsCommand,
  shortsFraction,
  sidecarOf,
  softCodec,
  softTrack,
} from "./command";
export type { FileToWrite, ShortsCaptions, ShortsCommand, ShortsJob } from "./command";
export { hasLibass, LIBASS_HINT, NO_LIBASS } from "./libass";
export { estimateEncodeSeconds, measureEncodeSpeed } from "./speed";
