import { join } from "node:path";
import { containerArgs, matchingH264Args } from "../encode";
import { ClipError } from "../../errors";
import { smartReencoded, toSeconds, type CutFrames } from "../keyframes";
import type { StagedPackets } from "./listing";
import { audioStep, reencodeStep, sec, smartResult, type Plan, type Step } from "./plan";
import type { CutRequest } from "../request";

/**
 * Smart cut: re-encode only the frames that must be (from the start frame to the next keyframe, and the end of the
 * last GOP when it cannot be copied) with matching H.264 settings, keep every whole GOP bit-for-bit, and write the
 * clip in one mux: the parts are joined as MPEG-TS with the concat protocol (parameter sets travel in-band, so each
 * part decodes with its own SPS/PPS), and the copied GOPs are picked out of the stage by their place in the staging
 * listing (`noise` drop expression), so the stage is never split into files. The head, tail and audio encodes are
 * independent and run at the same time; the audio is re-encoded for the clip (sample-accurate, no seam).
 */
export function smartPlanH264(
  req: CutRequest,
  stage: string,
  work: string,
  out: string,
  frames: CutFrames,
  staged: StagedPackets,
): Plan {
  const video = req.info.video;
  if (!video) throw new ClipError("invalid_format", "Smart cut needs a video stream.", 422);
  const { startPts, endPts, frameTicks, keyAfterStart, lastKey } = frames;
  const packets = staged.video;
  const delayTicks = frames.reorderDelayTicks;
  const stageEnd = packets.reduce((max, p) => Math.max(max, p.pts), 0) + frameTicks;
  const stageRate = rateOf(packets, packets[0]?.pts ?? 0, stageEnd, frameTicks);
  // The encode's rate cap: the source's own rate (of the frames replaced, or of the stage when higher: a part that
  // starts with a new IDR needs more than the P/B frames it replaces), so the clip stays the size of a copy.
  const capOf = (from: number, to: number) => Math.max(rateOf(packets, from, to, frameTicks), stageRate);
  const reencode = (filter: string, output: string, from: number, to: number, seek?: number) =>
    h264Encode(req, stage, filter, output, from, to, capOf(from, to), delayTicks, seek);
  const trimStart = `trim=start=${sec(startPts - frameTicks / 4)}`;
  const trimEnd = `end=${sec(endPts - frameTicks / 2)}`;
  const hasAudio = req.info.audio !== null;

  const steps: Step[] = [];
  const parts: string[] = [];
  let keep: string | null = null;
  const reencoded = smartReencoded(frames);
  if (reencoded.whole || keyAfterStart === null || lastKey === null) {
    // The whole clip sits inside one GOP: re-encode it all (trim's end stops the run there), still with the
    // source's parameters.
    const only = join(work, "only.ts");
    steps.push(reencode(`${trimStart}:${trimEnd}`, only, startPts, endPts));
    parts.push(only);
  } else {
    const indexOf = (keyPts: number) => {
      const i = packets.findIndex((p) => p.key && p.pts === keyPts);
      if (i < 0) throw new ClipError("stage_failed", "The staged copy has no keyframe at the cut; try again.", 500);
      return i;
    };
    // Head: the frames from the start frame up to the next keyframe (nothing to encode when start is a keyframe).
    let headFrames = 0;
    const head = h264HeadStep(req, stage, work, frames, staged);
    if (head) {
      steps.push(head);
      parts.push(join(work, "head.ts"));
      headFrames = reencoded.head;
    }
    // Copied: whole GOPs from the first keyframe of the clip, then the last GOP's longest closed prefix (all of it
    // when it ends the clip exactly); only the frames after that prefix, fewer than one B-frame group, are
    // re-encoded, as a tail that starts with its own IDR frame.
    const first = indexOf(frames.startOnKey ? startPts : keyAfterStart);
    const lastIndex = indexOf(lastKey);
    const copied = frames.tailCopyFrames;
    const last = lastIndex + copied - 1;
    const tailFrames = reencoded.tail;
    const ranges: [number, number][] = [[0, headFrames - 1]];
    if (last >= first) {
      parts.push(stage);
      // Packet numbers over the joined stream: the head's packets (one per frame, -bf 0), then the stage's.
      ranges.push([headFrames + first, headFrames + last]);
    }
    if (tailFrames > 0) {
      const tail = join(work, "tail.ts");
      // The first frame after the copied prefix (the prefix holds exactly the earliest frames of the GOP).
      const restart =
        packets
          .map((p) => p.pts)
          .filter((pts) => pts >= lastKey)
          .sort((a, b) => a - b)[copied] ?? lastKey;
      // Seek to the keyframe's own decode time (one tick past it, against rounding): the demuxer lands on the last
      // packet at or before it, so decoding starts on that keyframe (or, when ffmpeg's B-frame seek heuristic backs
      // off, on an earlier one), and trim drops every frame before the restart. Half a second before it, as this
      // was, decoded the whole GOP before as well: ~60 frames for a tail of a few.
      const seek = (packets[lastIndex]?.dts ?? lastKey - delayTicks) + 1;
      const step = reencode(`trim=start=${sec(restart - frameTicks / 4)}:${trimEnd}`, tail, restart, endPts, seek);
      steps.push({ ...step, concurrent: steps.length > 0 });
      parts.push(tail);
      // The tail's packets come after every stage packet; keep them too.
      ranges.push([headFrames + packets.length, headFrames + packets.length + tailFrames - 1]);
    }
    // Without the stage in the join (head and tail only) every packet is kept.
    if (last >= first) keep = keepRanges(ranges);
  }
  // The clip is muxed on the stage's absolute clock (output_ts_offset takes it to zero), the audio with it.
  const audio = hasAudio ? audioStep(req, stage, startPts, endPts, work, "absolute") : null;
  if (audio) steps.push({ ...audio.step, concurrent: steps.length > 0 });
  steps.push({
    args: [
      "-copyts",
      "-i",
      `concat:${parts.join("|")}`,
      ...(audio ? audio.inputArgs : []),
      "-map",
      "0:v:0",
      "-c:v",
      "copy",
      ...(keep ? ["-bsf:v", keep] : []),
      ...(hasAudio ? ["-map", "1:a:0", "-c:a", "copy"] : []),
      "-output_ts_offset",
      `-${sec(startPts)}`,
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
 * (the GOP it replaces), so the cut can start it while the stage is still being written (early-head.ts).
 */
export function h264HeadStep(
  req: CutRequest,
  stage: string,
  work: string,
  frames: CutFrames,
  staged: StagedPackets,
): Step | null {
  const { startPts, keyBefore, keyAfterStart, frameTicks } = frames;
  if (frames.startOnKey || keyAfterStart === null) return null;
  const packets = staged.video;
  // The frames replaced, or their whole GOP when higher: a part that starts with a new IDR needs more than the P/B
  // frames it replaces.
  const cap = Math.max(
    rateOf(packets, startPts, keyAfterStart, frameTicks),
    rateOf(packets, keyBefore, keyAfterStart, frameTicks),
  );
  // trim's end stops the run at that keyframe, so the rest of the stage is not decoded.
  const filter = `trim=start=${sec(startPts - frameTicks / 4)}:end=${sec(keyAfterStart - frameTicks / 2)}`;
  const head = join(work, "head.ts");
  return h264Encode(req, stage, filter, head, startPts, keyAfterStart, cap, frames.reorderDelayTicks);
}

/** Source bits per second of the frames in [from, to). */
function rateOf(packets: StagedPackets["video"], from: number, to: number, frameTicks: number): number {
  const bytes = packets.filter((p) => p.pts >= from && p.pts < to).reduce((sum, p) => sum + p.size, 0);
  return (bytes * 8) / Math.max(toSeconds(to - from), toSeconds(frameTicks));
}

/** One re-encoded stretch [from, to) of the stage with the source's H.264 parameters, as MPEG-TS. */
function h264Encode(
  req: CutRequest,
  stage: string,
  filter: string,
  output: string,
  from: number,
  to: number,
  capBitsPerSecond: number,
  delayTicks: number,
  seek?: number,
): Step {
  const step = reencodeStep({
    input: stage,
    filter,
    output,
    seconds: toSeconds(to - from),
    origin: toSeconds(from),
    encode: [
      "-enc_time_base:v",
      "1/90000",
      ...matchingH264Args(req.info.video!, capBitsPerSecond),
      // The copied GOPs decode with a B-frame delay; shifting the re-encoded part's DTS by the same delay keeps
      // decode timestamps monotonic across every join (pts stay untouched).
      "-bsf:v",
      `setts=dts=DTS-${delayTicks}`,
    ],
    mux: ["-muxdelay", "0", "-f", "mpegts"],
    costPerSecond: 3,
  });
  // The tail starts deep in the stage: seek near it (absolute stage time, no accurate-seek trim of ffmpeg's own:
  // the filter's trim picks the frames) instead of decoding the whole clip.
  if (seek !== undefined) step.args.unshift("-seek_timestamp", "1", "-noaccurate_seek", "-ss", sec(seek));
  return step;
}

/**
 * A `noise` bitstream filter that keeps only the packets in the given inclusive ranges (0-based, stream order; empty
 * ranges, to < from, are skipped) and drops the rest. Each kept range [a, b] contributes w = 1 - (n-a)*(n-b), which
 * is ≥ 1 inside it and ≤ 0 outside; the sum of (w+abs(w))/2 over the ranges is positive exactly on kept packets, so
 * the drop value is 1 minus that, clamped at 0 from below with the same x+abs(x) form (a negative drop value means
 * "drop one in k at random" to this filter, see keepPackets in copy.ts). No commas: they would split the filter list.
 */
export function keepRanges(ranges: [number, number][]): string {
  const kept = ranges.filter(([a, b]) => b >= a);
  if (kept.length === 0) return "noise=drop=1";
  const inside = kept.map(([a, b]) => `(1-(n-${a})*(n-${b}))`).map((w) => `(${w}+abs(${w}))`);
  // inside-sum is 0 outside every range and ≥ 2 inside one; drop = max(0, 1 - sum) without a comma.
  const x = `(1-(${inside.join("+")}))`;
  return `noise=drop=${x}+abs(${x})`;
}
