import { toTicks } from "../keyframes";
import { audioCodecArgs, containerArgs } from "../encode";
import { audioTrim, STAGE_OFFSET, type Plan } from "./plan";
import type { CutRequest } from "../request";

/** Audio output (MP3, WAV): the clip's samples, encoded. */
export function audioPlan(req: CutRequest, stage: string, out: string, end: number): Plan {
  const startPts = toTicks(req.startSeconds) + STAGE_OFFSET;
  const endPts = toTicks(end) + STAGE_OFFSET;
  const duration = end - req.startSeconds;
  return {
    strategy: "reencode",
    reason: "audio output is encoded from the clip's samples",
    startSeconds: req.startSeconds,
    endSeconds: end,
    snapped: false,
    expectVideo: false,
    expectAudio: true,
    steps: [
      {
        args: [
          "-copyts",
          "-i",
          stage,
          "-map",
          "0:a:0",
          "-af",
          audioTrim(startPts, endPts, true),
          ...audioCodecArgs(req.format),
          ...containerArgs(req.format),
          out,
        ],
        mediaSeconds: duration,
        origin: 0,
        weight: 1,
      },
    ],
  };
}
