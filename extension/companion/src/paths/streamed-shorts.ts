import { readPacketWindows } from "../source/packet-windows";
import type { InputSpec } from "../source/source";
import { inputArgs } from "../source/source";
import { shortsCommand } from "../shorts";
import { planFrames, toSeconds, toTicks, type CutFrames } from "./keyframes";
import type { CutRequest, PacketsAhead } from "./request";
import type { Plan } from "./staged/plan";
import { shortsJobFor, shortsReason } from "./staged/shorts";
import { reencodeReasons } from "./strategy";

/**
 * The Shorts path straight from the source: a crop or burned-in captions re-encode every picture, so nothing is
 * gained by staging the span first (a second read, a second process, a second probe). One ffmpeg run reads the
 * source through the guarded range proxy and writes the clip (shorts/command.ts). Its frames are the cut's: the
 * packets around the start and the end are listed first by ffprobe (the demuxer that then decodes them, as the
 * true-cut report reads them), the decode starts at the keyframe before the first frame, and the trim keeps exactly
 * the frame shown at the start and every frame before the end.
 */

/** Containers whose seek lands on a keyframe at or before the asked time, by the same timestamps ffprobe lists. */
const SEEKABLE = /^(mov,mp4|matroska)/;

/**
 * Read before the start: the frame shown at the start may come before the decode time of the keyframe after it
 * (B-frames), and the keyframe before it must be listed too. Longer than any reorder delay.
 */
const LEAD_SECONDS = 1;
/** Read past the end: the frames shown before the end that are decoded after it. */
const TAIL_SECONDS = 1;
/** Windows closer than this are read as one. */
const JOIN_SECONDS = 3;

/** Why the streamed path does not take a request it otherwise would (null: it takes it). */
export function streamedShortsRefusal(req: CutRequest): string | null {
  if (!req.info.video) return "no picture";
  if (!req.crop && !req.captions) return "no crop and no captions";
  // A captions track alone leaves the picture as it is: it is copied, not encoded.
  const others = reencodeReasons(req).filter((why) => why !== "captions track");
  if (others.length === 0) return "a captions track alone";
  if (!SEEKABLE.test(req.info.formatName)) return `${req.info.formatName} is staged first`;
  return null;
}

/** The packet windows the plan reads: around the start and around the end (one window for a short clip). */
export function planWindows(start: number, end: number): [number, number][] {
  const from = Math.max(0, start - LEAD_SECONDS);
  if (end - start <= JOIN_SECONDS) return [[from, end + TAIL_SECONDS]];
  return [
    [from, start + TAIL_SECONDS],
    [Math.max(start, end - LEAD_SECONDS), end + TAIL_SECONDS],
  ];
}

export interface StreamedPlan {
  frames: CutFrames;
  /** The clip's frames (counted on the grid where the windows leave a gap). */
  frameCount: number;
  /** The plan on the proxied input: the range proxy lives only while its step runs. */
  onInput(proxied: InputSpec): Plan;
}

/**
 * Starts listing the packets the plan reads for a range (the job queue does, for a crop or burned-in captions, while
 * the source is probed and the hold asked: the list is one ffprobe run, not to be waited for after them).
 */
export function listAhead(
  ffprobe: string,
  input: InputSpec | Promise<InputSpec>,
  range: { startSeconds: number; endSeconds: number },
  signal?: AbortSignal,
): PacketsAhead {
  const windows = planWindows(range.startSeconds, range.endSeconds);
  const packets = Promise.resolve(input).then((spec) =>
    readPacketWindows(ffprobe, { ...spec, audio: undefined }, windows, signal),
  );
  packets.catch(() => undefined);
  return { windows, packets };
}

/** Lists the packets around the range (or takes the list made ahead) and plans the one ffmpeg run. */
export async function planStreamedShorts(
  req: CutRequest,
  o: { ffprobe: string; work: string; out: string; signal?: AbortSignal; ahead?: PacketsAhead },
): Promise<StreamedPlan> {
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const windows = planWindows(req.startSeconds, end);
  const ahead = o.ahead && JSON.stringify(o.ahead.windows) === JSON.stringify(windows) ? o.ahead.packets : null;
  const packets = await (ahead ??
    listAhead(o.ffprobe, req.input, { startSeconds: req.startSeconds, endSeconds: end }, o.signal).packets);
  if (packets.length === 0) throw new Error("No video packets in the requested range.");
  const frames = planFrames(packets, toTicks(req.startSeconds), toTicks(end));
  // The windows leave the middle of a long clip unread: its frames are counted on the grid (the trim keeps them
  // all, whatever their timestamps; only progress uses this count).
  const frameCount = Math.round((frames.endPts - frames.startPts) / frames.frameTicks);
  // The packets' own timestamps (-seek_timestamp): the seek goes to the keyframe before the first frame, half a
  // millisecond after it against rounding (an MP4 seeks by decode time, which is never after it).
  const onClock = (input: InputSpec) => ["-seek_timestamp", "1", ...inputArgs(input)];
  const onInput = (proxied: InputSpec): Plan => {
    // The request's clock is the source's: time 0 is the same on both.
    const command = shortsCommand(
      shortsJobFor(
        req,
        { frames, frameCount, requestOrigin: 0, out: o.out, work: o.work },
        {
          videoInput: onClock({ ...proxied, audio: undefined }),
          // YouTube's DASH sound is a stream of its own; a file's is read by a second input of the same file.
          audioInput: req.info.audio ? onClock(proxied.audio ?? proxied) : null,
          seekSeconds: toSeconds(frames.keyBefore) + 0.0005,
        },
      ),
    );
    return {
      strategy: "reencode",
      reason: shortsReason(req),
      startSeconds: toSeconds(frames.startPts),
      endSeconds: toSeconds(frames.endPts),
      snapped: false,
      expectVideo: true,
      expectAudio: req.info.audio !== null,
      steps: [
        { args: command.args, writeFirst: command.files, mediaSeconds: command.mediaSeconds, origin: 0, weight: 1 },
      ],
      sidecar: command.sidecar?.text,
    };
  };
  return { frames, frameCount, onInput };
}
