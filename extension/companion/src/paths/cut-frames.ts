import { joinFrames, TICKS_PER_SECOND, toTicks, type CutFrames } from "./keyframes";
import { planInProcess } from "./index";
import type { CutRequest, DirectPlan } from "./request";
import { chooseWith } from "./strategy";

/**
 * The clip's frames as the cut reads them, for the true-cut report: the plan of the in-process path that takes the
 * source (paths/index.ts, the cut's own planning), so that the report's first and last frames are the ones the cut
 * writes where ffprobe reads the source otherwise (a fragmented MP4 without an edit list, whose fragments ffprobe
 * seeks by decode time). Null when the cut is staged: ffprobe's packets are then what the stage is cut from.
 *
 * A clip up to `wholeSeconds` long is planned whole, as the cut plans it. A longer one is read at its two ends only (a
 * byte copy's walk reads what it plans): its first frame alone, planned as the cut plans a clip (taken only where the
 * cut's rule copies from that start; a start it will not copy costs what the cut's own planning reads to find out),
 * then its last second as a copy from the keyframe before it. The two are joined, and the cut's rule is applied to
 * them together: a copy is cut in this process, anything else is staged.
 */

/** A long clip's end is planned over this long (its plan reads from the keyframe before: the last GOP whole). */
export const END_WINDOW_SECONDS = 1;

export interface CutReading {
  frames: CutFrames;
  /** The cut's reason for its copy. */
  reason: string;
}

export async function cutFrames(
  req: CutRequest,
  wholeSeconds: number,
  signal?: AbortSignal,
): Promise<CutReading | null> {
  const start = req.startSeconds;
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  if (end - start <= Math.max(wholeSeconds, END_WINDOW_SECONDS)) {
    const whole = await planned({ ...req, endSeconds: end }, signal);
    return whole && { frames: whole.frames, reason: whole.reason };
  }
  const head = await planned({ ...req, endSeconds: start }, signal);
  if (!head) return null;
  const tail = await planned(
    { ...req, strategy: "copy", startSeconds: end - END_WINDOW_SECONDS, endSeconds: end },
    signal,
  );
  if (!tail) return null;
  const fps = req.info.video?.frameRate ?? 0;
  const frames = joinFrames(head.frames, tail.frames, fps > 0 ? TICKS_PER_SECOND / fps : head.frames.frameTicks);
  // The tail's plan says where a copy can stop (its endSeconds): the rule copies only when that is the clip's end.
  const endPts = toTicks(tail.endSeconds);
  const choice = chooseWith(req, frames, (reason) => ({ kind: "copy" as const, endPts, reason }));
  return choice.kind === "copy" ? { frames, reason: choice.reason } : null;
}

/** The plan of the first in-process path that takes `req`, closed at once (nothing is kept), or null. */
async function planned(req: CutRequest, signal?: AbortSignal): Promise<DirectPlan | null> {
  const outcome = await planInProcess(req, { signal });
  if (!("plan" in outcome)) return null;
  await outcome.plan.close();
  return outcome.plan;
}
