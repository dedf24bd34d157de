import { qualityHeight, type Quality } from "../../../../../app/domain/media";
import { shortsCommand, type ShortsJob } from "../../shorts";
import { copiesAudioPacket, TICKS_PER_SECOND, toSeconds, type CutFrames } from "../keyframes";
import type { StagedPackets } from "./listing";
import type { CutRequest } from "../request";
import { STAGE_OFFSET, type Plan } from "./plan";

/**
 * The Shorts path: a crop, or captions, cut from the stage in one ffmpeg run (shorts/command.ts): the exact frames
 * of the plan, cropped and scaled, captions burned in or muxed as a track, the sound copied when the container takes
 * it. The picture is always re-encoded.
 */

/** Why the clip goes this way, in the words the result and the panel's report use. */
export function shortsReason(req: Pick<CutRequest, "crop" | "captions">): string {
  const burn = req.captions?.mode === "burn";
  if (req.crop && burn) return "re-encoded for the crop and the burned-in captions";
  if (req.crop) return "re-encoded for the crop";
  if (burn) return "re-encoded for the burned-in captions";
  // A captions track alone is re-encoded only where a copy cannot start or end on the clip's frames.
  return "re-encoded with the captions track: a copy cannot start or end on these frames";
}

/** The short side the clip is scaled to: the asked quality when it is smaller than the box, never larger. */
function shortsScale(quality: Quality | null, box: { width: number; height: number }): Quality | null {
  return quality && qualityHeight(quality) < Math.min(box.width, box.height) ? quality : null;
}

/**
 * The one ffmpeg run's job as both Shorts paths fill it (this staged one and streamed-shorts.ts); each gives only its
 * inputs and how they are sought. The builder's frame 0 is the plan's first frame (whatever the input's first
 * timestamp): the range is the middles of the first and the last of the clip's frames on that grid, and the cues move
 * onto that clock from the request's, whose time 0 stands at `requestOrigin` (ticks) on the frames' clock.
 */
export function shortsJobFor(
  req: CutRequest,
  at: { frames: CutFrames; frameCount: number; requestOrigin: number; out: string; work: string },
  inputs: Pick<ShortsJob, "videoInput" | "audioInput" | "audioPackets" | "seekSeconds">,
): ShortsJob {
  const { frames } = at;
  const video = req.info.video!;
  const source = { width: video.width, height: video.height };
  const crop = req.crop ?? null;
  const fps = TICKS_PER_SECOND / frames.frameTicks;
  const shift = toSeconds(frames.startPts - at.requestOrigin);
  return {
    ...inputs,
    audioCodec: req.info.audio?.codec ?? null,
    originSeconds: toSeconds(frames.startPts),
    startSeconds: 0.5 / fps,
    endSeconds: (at.frameCount - 0.5) / fps,
    fps,
    source,
    crop,
    scaleTo: shortsScale(req.quality, crop ?? source),
    captions: req.captions
      ? { ...req.captions, cues: req.captions.cues.map((c) => ({ ...c, start: c.start - shift, end: c.end - shift })) }
      : null,
    watermark: req.watermark,
    format: req.format,
    output: at.out,
    workDir: at.work,
  };
}

export function shortsPlan(
  req: CutRequest,
  stage: string,
  work: string,
  out: string,
  frames: CutFrames,
  staged: StagedPackets,
): Plan {
  const hasAudio = req.info.audio !== null && staged.audio.length > 0;
  // -ss on an input counts from its first timestamp unless told otherwise; the builder's are the stage's own times.
  const stageInput = ["-seek_timestamp", "1", "-i", stage];
  // A copied sound keeps the stage's packets from the first at or after the first frame (the copy paths' rule).
  const kept = staged.audio.flatMap((p, i) =>
    copiesAudioPacket(p.pts, p.duration, frames.startPts, frames.endPts) ? [i] : [],
  );
  const command = shortsCommand(
    shortsJobFor(
      req,
      { frames, frameCount: frames.frameCount, requestOrigin: STAGE_OFFSET, out, work },
      {
        videoInput: stageInput,
        audioInput: hasAudio ? stageInput : null,
        audioPackets: { from: kept[0] ?? 0, to: kept[kept.length - 1] ?? -1 },
      },
    ),
  );
  return {
    strategy: "reencode",
    reason: shortsReason(req),
    startSeconds: toSeconds(frames.startPts - STAGE_OFFSET),
    endSeconds: toSeconds(frames.endPts - STAGE_OFFSET),
    snapped: false,
    expectVideo: true,
    expectAudio: hasAudio,
    steps: [
      {
        args: command.args,
        writeFirst: command.files,
        mediaSeconds: command.mediaSeconds,
        origin: 0,
        weight: 4,
      },
    ],
    sidecar: command.sidecar?.text,
  };
}
