import { cuesOnClip, sidecarOf, softCodec, softTrack } from "../../shorts";
import { TICKS_PER_SECOND, toSeconds, type CutFrames } from "../keyframes";
import type { CutRequest } from "../request";
import type { Choice } from "../strategy";
import { copyPlan } from "./copy";
import type { StagedPackets } from "./listing";
import { sec, STAGE_OFFSET, type Plan } from "./plan";

/**
 * A captions track alone (no crop, no burn-in, nothing else that changes the picture): the staged copy (copy.ts)
 * with the track muxed beside the copied picture and sound, nothing re-encoded. The cues follow the copy's first
 * frame: the keyframe at or before the start (the start itself unless a snap was allowed), shifted the same way
 * as the picture. Where a copy cannot start or end on the clip's frames the strategy rule chooses a re-encode
 * (strategy.ts: no smart cut adds a track), and staged shorts takes the clip.
 */

/** Why a clip goes this way, in the result's and the report's words. */
export const remuxReason = (copyReason: string) => `${copyReason}; the captions track added`;

/** Why the path does not take a request (null: it does). */
export function remuxRefusal(req: CutRequest, choice: Choice | null): string | null {
  if (!choice) return "audio output";
  if (req.captions?.mode !== "soft") return "no captions track";
  if (req.crop) return "a crop re-encodes the picture";
  return choice.kind !== "copy" ? `the stage's rule chose ${choice.kind}` : null;
}

export function remuxPlan(
  req: CutRequest,
  stage: string,
  work: string,
  out: string,
  frames: CutFrames,
  choice: Extract<Choice, { kind: "copy" }>,
  staged: StagedPackets,
): Plan {
  const plan = copyPlan(req, stage, out, frames, choice.packets, choice.endPts, staged);
  const captions = req.captions!;
  const video = req.info.video!;
  // The clip's clock and grid: frame 0 is the copy's first (its keyframe), the last is before the copy's end.
  const first = frames.keyBefore;
  const fps = TICKS_PER_SECOND / frames.frameTicks;
  const count = Math.round((choice.endPts - first) / frames.frameTicks);
  const shift = toSeconds(first - STAGE_OFFSET);
  const onClip = cuesOnClip(
    { ...captions, cues: captions.cues.map((c) => ({ ...c, start: c.start - shift, end: c.end - shift })) },
    { first: 0, last: count - 1 },
    fps,
    { width: video.width, height: video.height },
  );
  const track = softTrack(onClip, req.format, work);
  const [step] = plan.steps;
  if (!step) throw new Error("The copy plan has no step.");
  const at = step.args.indexOf(stage);
  const offset = step.args.indexOf("-output_ts_offset");
  if (at < 0 || step.args[at - 1] !== "-i" || offset < 0) throw new Error("The copy plan's arguments changed.");
  // The track's file is on the clip's clock; the copy's output is shifted back from the stage's, so the track
  // enters on the stage's clock (the copy's first frame) and leaves with the picture.
  const args = [
    ...step.args.slice(0, at + 1),
    ...["-itsoffset", sec(first), "-i", track.path],
    ...step.args.slice(at + 1, offset),
    ...["-map", "1:s:0", "-c:s", softCodec(req.format)],
    ...step.args.slice(offset),
  ];
  return {
    ...plan,
    reason: remuxReason(choice.reason),
    steps: [{ ...step, args, writeFirst: [track] }],
    sidecar: captions.srt ? sidecarOf(onClip, out).text : undefined,
  };
}
