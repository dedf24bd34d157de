import type { Captions } from "../../../../app/domain/clip-request";
import { cropOnFrame, type Aspect, type Crop, type CropBox } from "../../../../app/domain/crop";
import { ClipError } from "../errors";
import { chooseCaptionFile, fetchCaptionCues } from "../source/captions";
import type { MediaInfo } from "../source/probe";
import type { InputSpec } from "../source/source";
import type { ShortsCaptions } from "./command";
import { hasLibass, LIBASS_HINT, NO_LIBASS } from "./libass";

/** A clip's options for short videos as a job (or a report) asks for them. */
export interface ShortsAsk {
  aspect?: Aspect;
  crop?: Crop | null;
  cropPosition?: number | null;
  captions?: Captions | null;
}

export const LIBASS_MISSING = `Burned-in captions need libass. ${NO_LIBASS}\n${LIBASS_HINT}`;

/** The crop on the file's frame (the panel's box, or its position), null without one or without a picture. */
export function cropForSource(ask: ShortsAsk, info: MediaInfo): CropBox | null {
  const video = info.video;
  return video ? cropOnFrame({ width: video.width, height: video.height }, ask) : null;
}

/**
 * What the cut needs of the captions asked for, checked before anything is reserved: the track is one the video has
 * (else a 400 naming it), a burn-in has libass (else what to install), and the track's file is fetched through the
 * source's guard.
 */
export async function captionsForCut(
  ask: ShortsAsk,
  input: InputSpec,
  ffmpeg: string,
  signal?: AbortSignal,
): Promise<ShortsCaptions | null> {
  const c = ask.captions;
  if (!c) return null;
  const file = chooseCaptionFile(input.captions, c.track);
  // The track is fetched while ffmpeg is asked about libass (a process start, the first time); a burn-in without
  // it is refused before the cues are used.
  const fetching = fetchCaptionCues(file, input.guard ?? { allowPrivate: false }, signal);
  fetching.catch(() => undefined);
  if (c.mode === "burn" && !(await hasLibass(ffmpeg))) throw new ClipError("missing_libass", LIBASS_MISSING, 422);
  return { cues: await fetching, mode: c.mode, srt: c.srt ?? false };
}
