import { useState } from "react";
import type { Preset } from "../../../../app/domain/api";
import type { ClipRange } from "../../../../app/domain/clip-range";
import { SOFT_CAPTION_FORMATS, type Captions } from "../../../../app/domain/clip-request";
import { DEFAULT_CROP_POSITION, cropFor, isCropAspect, type Aspect, type FrameSize } from "../../../../app/domain/crop";
import { isAudioFormat, type Format, type Quality } from "../../../../app/domain/media";
import type { ClipJob } from "../../lib/messages";
import { TITLE } from "../../lib/youtube-page";
import { sentRange } from "./use-clip-range";

/**
 * Everything the clip is made with besides its range, in one object: a new option (an aspect with its crop, a
 * captions track) is one more field here, one more control in ClipOptionsFields, and one more field of the job.
 */
export interface ClipOptions {
  name: string;
  format: Format;
  quality: Quality;
  /** Original, or the aspect the crop box keeps. */
  aspect: Aspect;
  /** Where the crop box sits: a fraction of the free room (0 left or top, 1 right or bottom), kept by presets. */
  cropPosition: number;
  /** The caption track (its language key), how it goes into the clip, and an .srt beside it; null for none. */
  captions: Captions | null;
}

/** The options for short videos as a job and a dry run send them: nothing for Original without captions. */
export type ShortsFields = Pick<ClipJob, "aspect" | "crop" | "cropPosition" | "captions">;

/**
 * The aspect, crop and captions of a request. The crop is the rule's box in source pixels (cropFor) on the frame of
 * the video the panel shows; without that frame (its size not known yet) the position alone, which the companion
 * places on its file's frame. Audio clips take neither.
 */
export function shortsFields(o: ClipOptions, frame: FrameSize | null): ShortsFields {
  if (isAudioFormat(o.format)) return {};
  const captions = o.captions ? { captions: o.captions } : {};
  if (!isCropAspect(o.aspect)) return captions;
  const crop = frame ? cropFor(frame, o.aspect, o.cropPosition) : null;
  return crop
    ? { aspect: o.aspect, crop, ...captions }
    : { aspect: o.aspect, cropPosition: o.cropPosition, ...captions };
}

const pageTitle = () => document.querySelector(TITLE)?.textContent?.trim() || document.title.replace(/ - YouTube$/, "");

/** The page video's own frame in pixels (the crop's frame), null until its metadata is known. */
export const videoFrame = (video: HTMLVideoElement | null): FrameSize | null =>
  video && video.videoWidth > 0 && video.videoHeight > 0
    ? { width: video.videoWidth, height: video.videoHeight }
    : null;

export function useClipOptions(pageUrl: string, video: HTMLVideoElement | null) {
  const [options, setOptions] = useState<ClipOptions>(() => ({
    name: pageTitle(),
    format: "mp4",
    quality: "720p",
    aspect: "original",
    cropPosition: DEFAULT_CROP_POSITION,
    captions: null,
  }));
  const set = (patch: Partial<ClipOptions>) =>
    setOptions((o) => {
      const next = { ...o, ...patch };
      // A format without subtitle tracks (GIF, AVI) takes captions burned in.
      if (next.captions?.mode === "soft" && !(SOFT_CAPTION_FORMATS as readonly string[]).includes(next.format))
        next.captions = { ...next.captions, mode: "burn" };
      return next;
    });
  /** A preset sets the options it carries (its clip length is the range's concern). */
  const applyPreset = (preset: Preset) =>
    set({
      format: preset.format,
      quality: preset.quality,
      aspect: preset.aspect,
      cropPosition: preset.cropPosition ?? DEFAULT_CROP_POSITION,
      captions: preset.captions,
    });
  /** The job for a range with these options. */
  const job = (range: ClipRange, fps: number | null, name = options.name): ClipJob => ({
    name,
    videoUrl: pageUrl,
    ...sentRange(range, fps),
    format: options.format,
    quality: options.quality,
    ...shortsFields(options, videoFrame(video)),
  });
  return { options, set, applyPreset, job, shorts: () => shortsFields(options, videoFrame(video)) };
}

export type ClipOptionsState = ReturnType<typeof useClipOptions>;
