/**
 * Frames, not milliseconds: the one rule for "which frame" shared by the clip panel (seeks, labels) and the
 * companion (the times it is sent). A frame N of a constant-rate video is presented from N / fps to (N + 1) / fps.
 *
 * Why the middle of a frame: browsers show the last frame whose time is ≤ currentTime, Chromium stores currentTime
 * truncated to the microsecond (an exact N / fps target shows frame N − 1 for about a third of frames), and the
 * companion takes the last frame at or before its time + 1 ms (takesAsFirst). Half a frame away from both edges, every
 * one of these rules picks frame N, up to about 240 fps even after rounding to the millisecond.
 */

/** Without a known frame rate the panel steps by this much and shows no frame numbers. */
export const FALLBACK_STEP_SECONDS = 0.1;

/** Frame rates the panel trusts: a probe answer outside this is treated as unknown. */
export const isUsableFps = (fps: number | null | undefined): fps is number =>
  typeof fps === "number" && Number.isFinite(fps) && fps >= 1 && fps <= 240;

/**
 * The frame presented at `seconds`: the last one starting at or before it. The tolerance (a thousandth of a frame)
 * absorbs a presentation time read back truncated to the microsecond (Chromium's rVFC mediaTime) or a seek target
 * echoed back (Firefox's), and is far below half a frame.
 */
export function frameAt(seconds: number, fps: number): number {
  return Math.max(0, Math.floor(seconds * fps + 1e-3));
}

/**
 * The companion's rule, on the source's own presentation times (a video may start off the grid from 0: a WebM whose
 * Opus priming puts its picture 7 ms late): the clip's first frame is the last one that starts at or before the start
 * + 1 ms, and it holds every frame that starts before the end less half a millisecond.
 *
 * Why these margins: both absorb a time rounded to the millisecond (Matroska's clock, the panel's times). At the end
 * half a millisecond, not more: the panel sends the middle of the last frame, which on a millisecond clock is at least
 * 1 ms after that frame's start whenever the frame starts before it (59.94 fps, 7 ms late: 8.3 − 7 = 1.3 ms, rounded
 * to 1 or 2), so a margin of 1 ms dropped the end handle's frame; and an exclusive end on a frame boundary is at most
 * half a millisecond past that frame's rounded start, which "before" still leaves out.
 */
export const START_TOLERANCE_SECONDS = 0.001;
export const END_TOLERANCE_SECONDS = 0.0005;

/** The companion may take a frame starting at `pts` as the first one for a start at `start` (seconds). */
export const takesAsFirst = (pts: number, start: number) => pts <= start + START_TOLERANCE_SECONDS;

/** The last frame that starts before an exclusive end time `seconds`. */
export function lastFrameBefore(seconds: number, fps: number): number {
  return Math.max(0, Math.ceil(seconds * fps - 1e-3) - 1);
}

/** When frame N starts (its presentation time on a grid from 0). */
export const frameStart = (frame: number, fps: number) => frame / fps;

/** Where to seek so that every browser shows frame N: its middle. */
export const seekTarget = (frame: number, fps: number) => (frame + 0.5) / fps;

/** The time sent to the companion for frame N (as a first or last frame): its middle, to the millisecond. */
export const companionSeconds = (frame: number, fps: number) => Math.round(seekTarget(frame, fps) * 1000) / 1000;

/** A clip as whole frames: `first` and `last` are both in the clip. */
export interface FrameRange {
  first: number;
  last: number;
}

/** A range in seconds (start, exclusive end) as frames: the frame shown at the start, the last one before the end. */
export function toFrames(range: { start: number; end: number }, fps: number): FrameRange {
  const first = frameAt(range.start, fps);
  return { first, last: Math.max(first, lastFrameBefore(range.end, fps)) };
}

/** Frames back to the seconds the range editor works in: from the first frame's start to the last frame's end. */
export const frameRangeSeconds = (frames: FrameRange, fps: number) => ({
  start: frameStart(frames.first, fps),
  end: frameStart(frames.last + 1, fps),
});

/** Seconds snapped onto the frame grid (a round trip through frames). */
export const snapRange = (range: { start: number; end: number }, fps: number) =>
  frameRangeSeconds(toFrames(range, fps), fps);

/**
 * What the companion is sent for a frame range: the middle of the first and of the last frame. It takes the frame
 * shown at the start and every frame before the end, which is exactly `first`..`last`.
 */
export const companionRange = (frames: FrameRange, fps: number) => ({
  startSeconds: companionSeconds(frames.first, fps),
  endSeconds: companionSeconds(frames.last, fps),
});

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** hh:mm:ss.mmm, to the millisecond (floored, so a frame's start never reads as the next millisecond). */
export function formatPrecise(seconds: number): string {
  const ms = Math.max(0, Math.floor(seconds * 1000 + 1e-6));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** A handle's label: "00:00:10.000 · frame 250", the frame's start time and its number. */
export const formatFrame = (frame: number, fps: number) => `${formatPrecise(frameStart(frame, fps))} · frame ${frame}`;
