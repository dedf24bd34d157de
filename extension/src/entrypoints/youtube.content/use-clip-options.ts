import { useState } from "react";
import type { Preset } from "../../../../app/domain/api";
import type { ClipRange } from "../../../../app/domain/clip-range";
import type { Format, Quality } from "../../../../app/domain/media";
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
}

const pageTitle = () => document.querySelector(TITLE)?.textContent?.trim() || document.title.replace(/ - YouTube$/, "");

export function useClipOptions(pageUrl: string) {
  const [options, setOptions] = useState<ClipOptions>(() => ({ name: pageTitle(), format: "mp4", quality: "720p" }));
  const set = (patch: Partial<ClipOptions>) => setOptions((o) => ({ ...o, ...patch }));
  /** A preset sets the options it carries (its clip length is the range's concern). */
  const applyPreset = (preset: Preset) => set({ format: preset.format, quality: preset.quality });
  /** The job for a range with these options. */
  const job = (range: ClipRange, fps: number | null, name = options.name): ClipJob => ({
    name,
    videoUrl: pageUrl,
    ...sentRange(range, fps),
    format: options.format,
    quality: options.quality,
  });
  return { options, set, applyPreset, job };
}

export type ClipOptionsState = ReturnType<typeof useClipOptions>;
