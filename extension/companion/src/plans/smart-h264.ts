import { join } from "node:path";
import { audioCodecArgs, containerArgs, matchingH264Args } from "../encode";
import { ClipError } from "../errors";
import { toSeconds, type CutFrames } from "../keyframes";
import { audioTrim, reencodeStep, sec, smartResult, type Plan, type Step } from "../plan";
import type { CutRequest } from "../request";

/**
 * Smart cut: split the staged copy at its keyframes, re-encode only the partial GOPs at the ends with matching
 * H.264 settings, keep every whole GOP bit-for-bit, and join the parts as MPEG-TS (parameter sets travel in-band,
 * so each part decodes with its own SPS/PPS). Audio is re-encoded for the whole clip in the final mux.
 */
export function smartPlanH264(req: CutRequest, stage: string, work: string, out: string, frames: CutFrames): Plan {
  const video = req.info.video;
  if (!video) throw new ClipError("invalid_format", "Smart cut needs a video stream.", 422);
  const { startPts, endPts, frameTicks, keyAfterStart, lastKey } = frames;
  const encode = matchingH264Args(video);
  const parts: string[] = [];
  const steps: Step[] = [];
  const ts = ["-muxdelay", "0", "-f", "mpegts"];
  // The copied GOPs decode with a B-frame delay; shifting the re-encoded part's DTS by the same delay keeps
  // decode timestamps monotonic across every join (pts stay untouched).
  const delayTicks = frames.reorderDelayTicks;
  const reencode = (input: string, filter: string, output: string, seconds: number, origin: number) =>
    reencodeStep({
      input,
      filter,
      output,
      seconds,
      origin,
      encode: ["-enc_time_base:v", "1/90000", ...encode, "-bsf:v", `setts=dts=DTS-${delayTicks}`],
      mux: ts,
      costPerSecond: 3,
    });
  const trimStart = `trim=start=${sec(startPts - frameTicks / 4)}`;
  const trimEnd = `trim=end=${sec(endPts - frameTicks / 2)}`;

  if (keyAfterStart === null || lastKey === null) {
    // The whole clip sits inside one GOP: re-encode it all, still with the source's parameters.
    const only = join(work, "only.ts");
    steps.push(reencode(stage, `${trimStart},${trimEnd}`, only, toSeconds(endPts - startPts), toSeconds(startPts)));
    parts.push(only);
  } else {
    const cuts = [...new Set([keyAfterStart, lastKey])].map((k) => sec(k - frameTicks / 2));
    steps.push({
      args: [
        "-copyts",
        "-i",
        stage,
        "-map",
        "0:v:0",
        "-c",
        "copy",
        "-muxdelay",
        "0",
        "-f",
        "segment",
        "-segment_format",
        "mpegts",
        "-segment_times",
        cuts.join(","),
        "-reset_timestamps",
        "0",
        join(work, "gop%d.ts"),
      ],
      mediaSeconds: toSeconds(endPts - frames.keyBefore),
      origin: toSeconds(frames.keyBefore),
      weight: 0.1 * toSeconds(endPts - frames.keyBefore),
    });
    const gop = (i: number) => join(work, `gop${i}.ts`);
    const tailIndex = cuts.length;
    // Head: the partial GOP from the start frame to the next keyframe (copied as is when start is a keyframe).
    if (frames.startOnKey) parts.push(gop(0));
    else {
      const head = join(work, "head.ts");
      steps.push(reencode(gop(0), trimStart, head, toSeconds(keyAfterStart - startPts), toSeconds(startPts)));
      parts.push(head);
    }
    if (cuts.length === 2) parts.push(gop(1));
    // Tail: the last GOP up to the end frame; copied when it can stop there cleanly, re-encoded otherwise.
    const tail = join(work, "tail.ts");
    if (frames.tailCopyable) {
      steps.push({
        args: [
          "-copyts",
          "-i",
          gop(tailIndex),
          "-map",
          "0:v:0",
          "-frames:v",
          String(frames.tailFrames),
          "-c",
          "copy",
          ...ts,
          tail,
        ],
        mediaSeconds: toSeconds(endPts - lastKey),
        origin: toSeconds(lastKey),
        weight: 0.1,
      });
    } else {
      steps.push(reencode(gop(tailIndex), trimEnd, tail, toSeconds(endPts - lastKey), toSeconds(lastKey)));
    }
    parts.push(tail);
  }
  const hasAudio = req.info.audio !== null;
  steps.push({
    args: [
      "-copyts",
      "-i",
      `concat:${parts.join("|")}`,
      ...(hasAudio ? ["-i", stage] : []),
      "-map",
      "0:v:0",
      "-c:v",
      "copy",
      ...(hasAudio ? ["-map", "1:a:0", "-af", audioTrim(startPts, endPts, false), ...audioCodecArgs(req.format)] : []),
      "-output_ts_offset",
      `-${sec(startPts)}`,
      ...containerArgs(req.format),
      out,
    ],
    mediaSeconds: toSeconds(endPts - startPts),
    origin: 0,
    weight: 0.3 * toSeconds(endPts - startPts),
  });
  return smartResult(steps, startPts, endPts, hasAudio);
}
