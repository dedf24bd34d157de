import { useEffect, useState } from "react";
import type { ClipRange } from "../../../../app/domain/clip-range";
import { clipRangeError } from "../../../../app/domain/clip-request";
import { companionRange, snapRange, toFrames, type FrameRange } from "../../../../app/domain/frames";
import { useFrameGrabs } from "./use-frame-grabs";
import { pageVideoDuration, usePageVideo } from "./use-page-video";

/** The times sent for a range: the middles of its first and last frames once the frame rate is known. */
export function sentRange(range: ClipRange, fps: number | null) {
  if (fps) return companionRange(toFrames(range, fps), fps);
  return { startSeconds: Math.round(range.start * 1000) / 1000, endSeconds: Math.round(range.end * 1000) / 1000 };
}

/**
 * The range on the page's own video: its handles, the frame rate they snap to (learned from the companion's report;
 * until then, seconds), the preview's loop, and the frames the browser showed while paused.
 */
export function useClipRange(signal: AbortSignal) {
  // The whole video when its duration is already known: the first render is then a usable range.
  const [range, setRawRange] = useState<ClipRange>(() => ({ start: 0, end: pageVideoDuration() }));
  const [fps, setFps] = useState<number | null>(null);
  const [loop, setLoop] = useState(true);
  const { grabs, grab } = useFrameGrabs(fps);
  const page = usePageVideo(signal, range, fps, loop, grab);
  // Every change of the range lands on the frame grid once the grid is known.
  const setRange = (update: (r: ClipRange) => ClipRange) =>
    setRawRange((r) => (fps ? snapRange(update(r), fps) : update(r)));

  // The end defaults to the whole video once its duration is known.
  const duration = page.state.duration;
  useEffect(() => {
    if (duration > 0) setRawRange((r) => (r.end === 0 ? { start: 0, end: duration } : r));
  }, [duration]);

  // A frame rate learned from the companion puts the range on its frame grid.
  useEffect(() => {
    if (fps) setRawRange((r) => (r.end > r.start ? snapRange(r, fps) : r));
  }, [fps]);

  const frames: FrameRange | null = fps ? toFrames(range, fps) : null;
  const length = Math.max(0, range.end - range.start);
  const sent = sentRange(range, fps);
  const tooShort = length > 0 ? clipRangeError(sent.startSeconds, sent.endSeconds) : null;
  return { range, setRange, fps, setFps, frames, length, sent, tooShort, loop, setLoop, grabs, page };
}

export type ClipRangeState = ReturnType<typeof useClipRange>;
