import { END_TOLERANCE_SECONDS, START_TOLERANCE_SECONDS } from "../../../../app/domain/frames";
import type { Packet } from "../source/probe";

/** The staging file's clock: MPEG-TS 90 kHz ticks, exact for 24/25/30/60 and the 1001 rates. */
export const TICKS_PER_SECOND = 90000;
export const toTicks = (seconds: number) => Math.round(seconds * TICKS_PER_SECOND);

/** The frame rule's margins (app/domain/frames.ts, START_ and END_TOLERANCE_SECONDS) in ticks. */
const START_TOLERANCE = toTicks(START_TOLERANCE_SECONDS);
const END_TOLERANCE = toTicks(END_TOLERANCE_SECONDS);

/** A frame at `pts` is on screen at or before the start: it may be the clip's first (takesAsFirst, in ticks). */
export const showsByStart = (pts: number, startTick: number) => pts <= startTick + START_TOLERANCE;

/** A frame at `pts` starts before the clip's exclusive end, less END_TOLERANCE_SECONDS (in ticks). */
export const beforeEnd = (pts: number, endTick: number) => pts < endTick - END_TOLERANCE;

export const toSeconds = (ticks: number) => ticks / TICKS_PER_SECOND;

/**
 * Where a read of the source (the stage, the report's packet window) begins so that it holds the frame shown at
 * `start`: earlier by the B-frame reorder delay. ffmpeg seeks a fragmented MP4 by its fragments' decode times, which
 * run that far behind the presentation times when no edit list hides the delay: the frames just before a keyframe
 * are in the fragment before the one a seek to their own time finds.
 */
export const readFromSeconds = (start: number, video: { reorderFrames: number; frameRate: number } | null) =>
  Math.max(0, start - (video && video.frameRate > 0 ? video.reorderFrames / video.frameRate : 0));

/**
 * The audio a copy keeps (every copy path: staged, mediabunny, byte copy): each packet that starts at or after the
 * first frame and whose middle is before the picture's end. Times in ticks.
 */
export const copiesAudioPacket = (pts: number, duration: number, fromTicks: number, endPts: number) =>
  pts >= fromTicks && pts + duration / 2 < endPts;

/**
 * The run of audio packets a copy keeps from a track in decode order (the byte copies' tables): from the first
 * packet at or after the first frame, while copiesAudioPacket holds. `pts` and `duration` in ticks.
 */
export function copiedAudioRun(
  count: number,
  pts: (i: number) => number,
  duration: (i: number) => number,
  fromTicks: number,
  endPts: number,
): { from: number; count: number } {
  let i = 0;
  while (i < count && pts(i) < fromTicks) i++;
  const from = i;
  while (i < count && copiesAudioPacket(pts(i), duration(i), fromTicks, endPts)) i++;
  return { from, count: i - from };
}

/** The typical frame duration: the median gap between presentation times. */
export function frameDuration(packets: readonly Packet[]): number {
  const pts = packets.map((p) => p.pts).sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < pts.length; i++) {
    const gap = (pts[i] ?? 0) - (pts[i - 1] ?? 0);
    if (gap > 0) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 3000;
}

export interface CutFrames {
  frameTicks: number;
  /** Presentation time of the first frame of the clip: the frame on screen at the requested start. */
  startPts: number;
  /** Exclusive end: presentation time just after the last frame. */
  endPts: number;
  frameCount: number;
  /** Last keyframe at or before the first frame (where decoding must begin). */
  keyBefore: number;
  startOnKey: boolean;
  /** First keyframe after the first frame and inside the clip, or null (the clip sits inside one GOP). */
  keyAfterStart: number | null;
  /** Frames from the first frame up to keyAfterStart, counted (a variable rate has no grid); all of them without it. */
  framesBeforeKey: number;
  /** Last keyframe inside the clip (== keyAfterStart when there is only one). */
  lastKey: number | null;
  /** Frames from lastKey to the end. */
  tailFrames: number;
  /** PTS − DTS of a keyframe: the source's B-frame reorder delay (0 without B-frames). */
  reorderDelayTicks: number;
  /** The last GOP can be stream-copied up to the end: its first tailFrames packets in decode order are exactly those frames. */
  tailCopyable: boolean;
  /**
   * Frames of the last GOP that can be stream-copied: the longest closed decode-order prefix from lastKey within the
   * clip (tailFrames when tailCopyable). A smart cut copies these and re-encodes only the frames after them, fewer
   * than a B-frame group, instead of the whole last GOP.
   */
  tailCopyFrames: number;
}

/**
 * Which frames a [start, end) request means, on a packet list in decode order.
 * The first frame is the one displayed at `start` (last pts ≤ start); the clip holds every frame with pts < end.
 */
export function planFrames(packets: readonly Packet[], startTick: number, endTick: number): CutFrames {
  if (packets.length === 0) throw new Error("No video packets in the requested range.");
  const frameTicks = frameDuration(packets);
  const sorted = packets.map((p) => p.pts).sort((a, b) => a - b);
  const first = sorted[0] ?? 0;
  let startPts = first;
  for (const pts of sorted) if (showsByStart(pts, startTick)) startPts = pts;
  const frames = sorted.filter((pts) => pts >= startPts && beforeEnd(pts, endTick));
  if (frames.length === 0) frames.push(startPts);
  const lastPts = frames[frames.length - 1] ?? startPts;
  const endPts = lastPts + frameTicks;
  const keys = packets
    .filter((p) => p.key)
    .map((p) => p.pts)
    .sort((a, b) => a - b);
  const keyBefore = keys.filter((k) => k <= startPts).pop() ?? first;
  const inside = keys.filter((k) => k > startPts && k <= lastPts);
  const keyAfterStart = inside[0] ?? null;
  const lastKey = inside[inside.length - 1] ?? null;
  let tailFrames = 0;
  let tailCopyFrames = 0;
  if (lastKey !== null) {
    tailFrames = frames.filter((pts) => pts >= lastKey).length;
    tailCopyFrames = tailFrames;
    while (tailCopyFrames > 0 && !isClosedPrefix(packets, lastKey, tailCopyFrames)) tailCopyFrames--;
  }
  const firstKey = packets.find((p) => p.key);
  const framesBeforeKey = keyAfterStart === null ? frames.length : frames.filter((pts) => pts < keyAfterStart).length;
  return {
    frameTicks,
    reorderDelayTicks: firstKey ? Math.max(0, firstKey.pts - firstKey.dts) : 0,
    startPts,
    endPts,
    frameCount: frames.length,
    keyBefore,
    startOnKey: keyBefore === startPts,
    keyAfterStart,
    framesBeforeKey,
    lastKey,
    tailFrames,
    tailCopyable: tailFrames > 0 && tailCopyFrames === tailFrames,
    tailCopyFrames,
  };
}

/**
 * One plan from two readings of a long clip: `head` planned from its first frame, `tail` from a later frame up to its
 * end (each from the keyframe before it). The start is the head's, the end, the last keyframe and the last GOP the
 * tail's; the frames between the two readings are counted on a grid of `gridTicks` (the stream's frame rate: a
 * millisecond clock's median gap is off by a hundredth). The first keyframe after the start is the head's, or else
 * the tail's (a later one, when several GOPs lie between).
 */
export function joinFrames(head: CutFrames, tail: CutFrames, gridTicks: number): CutFrames {
  const grid = (from: number, to: number) => Math.round((to - from) / gridTicks);
  // The tail's own keyframe is inside the clip when it comes after the first frame.
  const tailKey = tail.keyBefore > head.startPts ? tail.keyBefore : null;
  const keyAfterStart = head.keyAfterStart ?? tailKey ?? tail.keyAfterStart;
  const lastKey = tail.lastKey ?? tailKey;
  const frameCount = head.frameCount + grid(head.endPts, tail.startPts) + tail.frameCount;
  // The tail's last GOP, unless it began before the tail's window (then its copyable prefix is not known).
  const known = tail.lastKey !== null;
  return {
    ...head,
    frameTicks: tail.frameTicks,
    endPts: tail.endPts,
    frameCount,
    keyAfterStart,
    framesBeforeKey:
      head.keyAfterStart !== null
        ? head.framesBeforeKey
        : keyAfterStart === null
          ? frameCount
          : grid(head.startPts, keyAfterStart),
    lastKey,
    tailFrames: known ? tail.tailFrames : lastKey === null ? 0 : grid(lastKey, tail.endPts),
    tailCopyFrames: known ? tail.tailCopyFrames : 0,
    tailCopyable: known && tail.tailCopyable,
  };
}

/**
 * The frames a smart cut re-encodes (the rule of every smart path and of the true-cut report): a clip with no keyframe
 * after its first frame is re-encoded whole, whether or not it starts on one; otherwise the head, from the first frame
 * up to the next keyframe (none when it starts on a keyframe), and the tail, the last GOP's frames after its longest
 * closed prefix.
 */
export function smartReencoded(frames: CutFrames): { whole: boolean; head: number; tail: number } {
  if (frames.keyAfterStart === null) return { whole: true, head: frames.frameCount, tail: 0 };
  const head = frames.startOnKey ? 0 : frames.framesBeforeKey;
  return { whole: false, head, tail: frames.tailFrames - frames.tailCopyFrames };
}

function decodeOrderFrom(packets: readonly Packet[], keyPts: number): Packet[] {
  const index = packets.findIndex((p) => p.key && p.pts === keyPts);
  return index < 0 ? [] : packets.slice(index);
}

/**
 * True when the first `count` packets after the keyframe (decode order) are exactly the `count` earliest frames:
 * then stopping the copy there leaves no frame that needs a missing reference and no frame beyond the end.
 */
export function isClosedPrefix(packets: readonly Packet[], keyPts: number, count: number): boolean {
  const run = decodeOrderFrom(packets, keyPts);
  if (count <= 0 || run.length < count) return false;
  const head = run.slice(0, count);
  const maxPts = Math.max(...head.map((p) => p.pts));
  const earlier = run.filter((p) => p.pts >= keyPts && p.pts <= maxPts).length;
  return earlier === count;
}

export interface CopyEnd {
  /** Packets to copy from the keyframe, in decode order. */
  packets: number;
  /** Exclusive end reached, in ticks. */
  endPts: number;
}

/**
 * Stream copy can only stop where the decode-order prefix is closed (B-frames reference later frames).
 * Picks the closed prefix whose end is nearest the requested end.
 */
export function copyEnd(packets: readonly Packet[], keyPts: number, endTick: number, frameTicks: number): CopyEnd {
  const run = decodeOrderFrom(packets, keyPts);
  // suffixMin[i]: earliest pts among run[i..]; a prefix ending at i is closed when nothing later sorts before it.
  const suffixMin = new Array<number>(run.length + 1).fill(Infinity);
  for (let i = run.length - 1; i >= 0; i--)
    suffixMin[i] = Math.min(run[i]?.pts ?? Infinity, suffixMin[i + 1] ?? Infinity);
  let best: CopyEnd | null = null;
  let maxPts = -Infinity;
  for (let i = 0; i < run.length; i++) {
    maxPts = Math.max(maxPts, run[i]?.pts ?? -Infinity);
    if (maxPts >= (suffixMin[i + 1] ?? Infinity)) continue;
    const end = maxPts + frameTicks;
    if (!best || Math.abs(end - endTick) < Math.abs(best.endPts - endTick)) best = { packets: i + 1, endPts: end };
    if (end > endTick + 8 * frameTicks) break;
  }
  return best ?? { packets: 1, endPts: keyPts + frameTicks };
}
