import { audioCodecArgs, canCopyAudio, containerArgs } from "../encode";
import { ClipError } from "../../errors";
import { copiesAudioPacket, toSeconds, type CutFrames } from "../keyframes";
import type { StagedPackets } from "./listing";
import { audioTrim, sec, STAGE_OFFSET, type Plan } from "./plan";
import type { CutRequest } from "../request";
import { stagingFormat } from "../strategy";

/**
 * Stream copy from the keyframe at or before the start. The packets are picked by their place in the stage listing
 * (the `noise` bitstream filter's `drop` expression on the packet index), not with -frames:v, which would close the
 * whole file at the last video packet and clip the audio interleaved after it.
 *
 * Audio is copied too when the container takes the source's codec: a copy clip already starts on a keyframe rather
 * than on the asked frame, and re-encoding the sound (~0.5 s for 20 s of AAC) was most of a copy job's own work.
 * The trade-off: audio starts on the first audio packet at or after the first frame (up to one audio frame, ~21 ms,
 * after it) and ends within half an audio frame of the last frame, instead of sample-exactly; A/V sync is the
 * source's (timestamps are kept). Codecs the container cannot take are re-encoded and trimmed as before.
 */
export function copyPlan(
  req: CutRequest,
  stage: string,
  out: string,
  frames: CutFrames,
  packets: number,
  endPts: number,
  staged: StagedPackets,
): Plan {
  const start = frames.keyBefore;
  const audio = req.info.audio;
  const first = staged.video.findIndex((p) => p.key && p.pts === start);
  if (first < 0) throw new ClipError("stage_failed", "The staged copy has no keyframe at the cut; try again.", 500);
  let audioArgs: string[] = [];
  let audioPackets: number | null = null;
  if (audio && canCopyAudio(req.format, audio.codec)) {
    const kept = staged.audio
      .map((p, i) => ({ ...p, i }))
      .filter((p) => copiesAudioPacket(p.pts, p.duration, start, endPts));
    const a0 = kept[0]?.i ?? 0;
    const a1 = kept[kept.length - 1]?.i ?? -1;
    audioPackets = Math.max(0, a1 - a0 + 1);
    audioArgs = ["-map", "0:a:0", "-c:a", "copy", "-bsf:a", keepPackets(a0, a1)];
  } else if (audio) {
    audioArgs = ["-map", "0:a:0", "-af", audioTrim(start, endPts, false), ...audioCodecArgs(req.format)];
  }
  const video = req.info.video;
  return {
    strategy: "copy",
    startSeconds: toSeconds(start - STAGE_OFFSET),
    endSeconds: toSeconds(endPts - STAGE_OFFSET),
    snapped: start !== frames.startPts,
    expectVideo: true,
    expectAudio: audio !== null,
    known: video
      ? {
          seconds: toSeconds(endPts - start),
          width: video.width,
          height: video.height,
          videoSizes: staged.video.slice(first, first + packets).map((p) => p.size),
          // Matroska to Matroska keeps each packet's bytes; MPEG-TS H.264 into MP4/MKV is rewritten (start codes).
          sizesExact: stagingFormat(req) === "matroska" && (req.format === "webm" || req.format === "mkv"),
          audioPackets,
        }
      : undefined,
    steps: [
      {
        args: [
          "-copyts",
          "-i",
          stage,
          "-map",
          "0:v:0",
          "-c:v",
          "copy",
          "-bsf:v",
          keepPackets(first, first + packets - 1),
          ...audioArgs,
          "-output_ts_offset",
          `-${sec(start)}`,
          ...containerArgs(req.format),
          out,
        ],
        mediaSeconds: toSeconds(endPts - start),
        origin: 0,
        weight: 1,
      },
    ],
  };
}

/**
 * A bitstream filter that passes only packets `from`..`to` (0-based, in stream order) and drops the rest.
 * x = (n-from)*(n-to) is positive exactly outside the range; the filter is given x+abs(x), which is 2x there and 0
 * inside. x alone is wrong: the noise filter reads a NEGATIVE drop value -k as "drop one packet in k at random"
 * (seeded by the bytes seen so far), so a packet inside the range was dropped whenever that running sum happened
 * to divide by k (a VP9 copy lost its packet at 5.933 s). No comma: it would split the filter list.
 */
export function keepPackets(from: number, to: number): string {
  if (to < from) return "noise=drop=1";
  const x = `(n-${from})*(n-${to})`;
  return `noise=drop=${x}+abs(${x})`;
}
