import { join } from "node:path";
import { containerArgs, matchingVp9Args } from "../encode";
import { ClipError } from "../../errors";
import { smartReencoded, toSeconds, type CutFrames } from "../keyframes";
import { audioStep, reencodeStep, sec, smartResult, type Plan, type Step } from "./plan";
import type { StagedPackets } from "./listing";
import type { CutRequest } from "../request";

/**
 * Smart cut for VP9 (see docs/decisions/007): MPEG-TS cannot carry VP9 in FFmpeg 5.1, so the parts are Matroska and
 * are joined with the concat demuxer, each given its exact length. Every VP9 keyframe carries its full frame header
 * (no parameter sets to match beyond profile, bit depth, chroma and size), and the encoder makes no hidden alt-ref
 * frames, so copied GOPs decode after a re-encoded one without a seam. Audio is re-encoded for the clip.
 */
export function smartPlanVp9(
  req: CutRequest,
  stage: string,
  work: string,
  out: string,
  frames: CutFrames,
  staged: StagedPackets,
): Plan {
  const video = req.info.video;
  if (!video) throw new ClipError("invalid_format", "Smart cut needs a video stream.", 422);
  const { startPts, endPts, frameTicks, keyAfterStart } = frames;
  const parts: { file: string; ticks: number; inpoint?: number; outpoint?: number }[] = [];
  const steps: Step[] = [];
  const trimStart = `trim=start=${sec(startPts - frameTicks / 4)}`;
  const trimEnd = `trim=end=${sec(endPts - frameTicks / 2)}`;
  // Everything from the first keyframe of the clip on is copied straight out of the stage: the concat demuxer's
  // inpoint (on that keyframe) and outpoint (half a frame before the end) cut it exactly, because VP9 has no
  // reordering (decode order is display order). No segment split and no tail copy: two ffmpeg runs fewer.
  const copyFrom = smartReencoded(frames).whole ? null : frames.startOnKey ? startPts : keyAfterStart;
  if (copyFrom === null) {
    // The whole clip sits inside one GOP after its keyframe: re-encode it all.
    const only = join(work, "only.mkv");
    const encode = matchingVp9Args(video, stagedVideoRate(staged, frameTicks));
    steps.push(
      vp9Encode(stage, `${trimStart},${trimEnd}`, only, toSeconds(endPts - startPts), toSeconds(startPts), encode),
    );
    parts.push({ file: only, ticks: endPts - startPts });
  } else {
    const head = vp9HeadStep(req, stage, work, frames, staged);
    if (head) {
      steps.push(head);
      parts.push({ file: join(work, "head.mkv"), ticks: copyFrom - startPts });
    }
    parts.push({
      file: stage,
      ticks: endPts - copyFrom,
      inpoint: copyFrom,
      outpoint: endPts - frameTicks / 2,
    });
  }
  const list = join(work, "parts.txt");
  const listing = parts
    .map(
      (p) =>
        `file '${p.file.replace(/'/g, "'\\''")}'\nduration ${sec(p.ticks)}\n` +
        (p.inpoint === undefined ? "" : `inpoint ${sec(p.inpoint)}\n`) +
        (p.outpoint === undefined ? "" : `outpoint ${sec(p.outpoint)}\n`),
    )
    .join("");
  const hasAudio = req.info.audio !== null;
  // The concat demuxer puts the picture on the clip's clock (zero); the audio is encoded beside the head.
  const audio = hasAudio ? audioStep(req, stage, startPts, endPts, work, "zero") : null;
  if (audio) steps.push({ ...audio.step, concurrent: steps.length > 0 });
  steps.push({
    writeFirst: { path: list, text: listing },
    args: [
      "-copyts",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      ...(audio ? audio.inputArgs : []),
      "-map",
      "0:v:0",
      "-c:v",
      "copy",
      ...(audio ? ["-map", "1:a:0", "-c:a", "copy"] : []),
      ...containerArgs(req.format),
      out,
    ],
    mediaSeconds: toSeconds(endPts - startPts),
    origin: 0,
    weight: 0.1 * toSeconds(endPts - startPts),
  });
  return smartResult({
    steps,
    startPts,
    endPts,
    hasAudio,
    video,
    frameCount: frames.frameCount,
    audioListing: audio?.listing,
  });
}

/**
 * The head: the frames from the start frame up to the next keyframe, re-encoded (null when the start is a keyframe
 * or the clip sits inside one GOP). It needs only the stage's packets up to that keyframe, its rate cap included
 * (twice the rate of the GOP it replaces), so the cut can start it while the stage is still being written.
 */
export function vp9HeadStep(
  req: CutRequest,
  stage: string,
  work: string,
  frames: CutFrames,
  staged: StagedPackets,
): Step | null {
  const { startPts, keyBefore, keyAfterStart, frameTicks } = frames;
  const video = req.info.video;
  if (!video || frames.startOnKey || keyAfterStart === null) return null;
  const gop = { video: staged.video.filter((p) => p.pts >= keyBefore && p.pts < keyAfterStart), audio: [] };
  const encode = matchingVp9Args(video, stagedVideoRate(gop, frameTicks));
  // trim's end stops the run at the keyframe (ffmpeg ends when the filter does), so the rest is not decoded.
  const filter = `trim=start=${sec(startPts - frameTicks / 4)}:end=${sec(keyAfterStart - frameTicks / 2)}`;
  const seconds = toSeconds(keyAfterStart - startPts);
  return vp9Encode(stage, filter, join(work, "head.mkv"), seconds, toSeconds(startPts), encode);
}

function vp9Encode(input: string, filter: string, output: string, seconds: number, origin: number, encode: string[]) {
  return reencodeStep({ input, filter, output, seconds, origin, encode, mux: ["-f", "matroska"], costPerSecond: 4 });
}

/** The source's video bit rate over the stage (bits per second), from the staging listing's packet sizes. */
export function stagedVideoRate(staged: StagedPackets, frameTicks: number): number {
  const video = staged.video;
  if (video.length === 0) return 0;
  const pts = video.map((p) => p.pts);
  const seconds = toSeconds(Math.max(...pts) - Math.min(...pts) + frameTicks);
  return (video.reduce((sum, p) => sum + p.size, 0) * 8) / seconds;
}
