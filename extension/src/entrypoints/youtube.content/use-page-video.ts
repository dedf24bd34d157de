import { useEffect, useRef, useState } from "react";
import type { PlayerActions, PlayerState } from "../../../../app/components/clip-range/clip-range-editor";
import type { ClipRange } from "../../../../app/domain/clip-range";
import { FALLBACK_STEP_SECONDS, frameAt, seekTarget, toFrames } from "../../../../app/domain/frames";
import { PLAYER_VIDEO } from "../../lib/youtube-page";

const EVENTS = ["timeupdate", "durationchange", "loadedmetadata", "play", "pause", "volumechange", "seeked"];

/** What requestVideoFrameCallback hands over (typed here: not every DOM lib version has it). */
interface FrameMetadata {
  mediaTime: number;
}
type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: FrameMetadata) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export interface PageVideo {
  video: HTMLVideoElement | null;
  state: PlayerState;
  actions: PlayerActions;
  /** The frame on screen (from the presented frame's time), null without a frame rate. */
  frame: number | null;
  /** One frame (or, without a frame rate, 0.1 s) per unit; `seconds` moves by whole seconds instead. */
  step: (delta: number, seconds: boolean) => void;
}

/** The page's player video (the first <video> where YouTube's own player is missing). */
const findPageVideo = () =>
  document.querySelector<HTMLVideoElement>(PLAYER_VIDEO) ?? document.querySelector<HTMLVideoElement>("video");

/** The page video's duration in seconds, 0 until its metadata is known. */
export function pageVideoDuration(): number {
  const duration = findPageVideo()?.duration;
  return duration && Number.isFinite(duration) ? duration : 0;
}

/**
 * The page's own <video> as the range editor's player, on the frame grid once the frame rate is known.
 *
 * Seeks go to the middle of a frame ((N + 0.5) / fps): an exact N / fps shows frame N − 1 in Chromium (currentTime is
 * truncated to the microsecond). Stepping keeps the frame index as an integer rather than adding 1 / fps to
 * currentTime (which drifts back a frame per step). The preview's end is watched with requestVideoFrameCallback:
 * when the last frame of the range is presented, the preview loops to the first frame, or pauses and holds the last
 * one (a check of currentTime on animation frames overshoots by 1–3 frames; it remains the fallback).
 */
export function usePageVideo(
  signal: AbortSignal,
  range: ClipRange,
  fps: number | null,
  loop: boolean,
  onPresented?: (frame: number, video: HTMLVideoElement) => void,
): PageVideo {
  const [video] = useState(findPageVideo);
  const read = (): PlayerState => ({
    ready: !!video && Number.isFinite(video.duration) && video.duration > 0,
    playing: !!video && !video.paused,
    position: video?.currentTime ?? 0,
    duration: video && Number.isFinite(video.duration) ? video.duration : 0,
    muted: video?.muted ?? false,
    volume: Math.round((video?.volume ?? 1) * 100),
  });
  const [state, setState] = useState(read);
  const [frame, setFrame] = useState<number | null>(null);
  const live = useRef({ range, fps, loop, onPresented });
  live.current = { range, fps, loop, onPresented };
  /** The frame the last step asked for: steps in a row count from it (see step). */
  const pending = useRef<number | null>(null);
  /**
   * The frame last presented, as soon as the browser says so: a key pressed before React renders that frame must
   * count from it, not from the frame of the last render (rapid presses under load then repeated a frame).
   */
  const onScreen = useRef<number | null>(null);

  useEffect(() => {
    if (!video) return;
    const local = new AbortController();
    const stop = () => local.abort();
    signal.addEventListener("abort", stop, { once: true });
    const update = () => setState(read());
    for (const name of EVENTS) video.addEventListener(name, update, { signal: local.signal });
    update();

    /** At the range's end while playing: loop to the first frame, or pause and hold the last one. */
    const atEnd = () => {
      const { range: r, fps: rate, loop: looping } = live.current;
      if (rate) {
        const frames = toFrames(r, rate);
        if (looping) video.currentTime = seekTarget(frames.first, rate);
        else {
          video.pause();
          video.currentTime = seekTarget(frames.last, rate);
        }
      } else if (looping) video.currentTime = r.start;
      else {
        video.pause();
        video.currentTime = Math.max(r.start, r.end - 0.001);
      }
    };

    const rvfc = video as FrameCallbackVideo;
    let handle = 0;
    let raf = 0;
    if (rvfc.requestVideoFrameCallback) {
      const onFrame = (_now: number, meta: FrameMetadata) => {
        const { range: r, fps: rate, onPresented: presented } = live.current;
        if (rate) {
          // Chromium reports the presented frame's own time, Firefox (after a seek) the seek target: both floor to it.
          const shown = frameAt(meta.mediaTime, rate);
          onScreen.current = shown;
          setFrame(shown);
          if (video.paused) presented?.(shown, video);
          if (!video.paused && r.end > r.start && shown >= toFrames(r, rate).last) atEnd();
        } else if (!video.paused && r.end > r.start && meta.mediaTime >= r.end) atEnd();
        handle = rvfc.requestVideoFrameCallback!(onFrame);
      };
      handle = rvfc.requestVideoFrameCallback(onFrame);
    } else {
      const tick = () => {
        const { range: r, fps: rate } = live.current;
        if (rate) {
          onScreen.current = frameAt(video.currentTime, rate);
          setFrame(onScreen.current);
        }
        if (!video.paused && r.end > r.start && video.currentTime >= r.end) atEnd();
        raf = requestAnimationFrame(tick);
      };
      raf = requestAnimationFrame(tick);
    }
    return () => {
      if (handle) rvfc.cancelVideoFrameCallback?.(handle);
      cancelAnimationFrame(raf);
      signal.removeEventListener("abort", stop);
      stop();
    };
    // read() only closes over `video`, which never changes for one page.
  }, [video, signal]);

  // A frame rate learned later: the frame on screen is known from then on.
  useEffect(() => {
    onScreen.current = video && fps ? frameAt(video.currentTime, fps) : null;
    setFrame(onScreen.current);
  }, [video, fps]);

  const lastFrame = () => (video && fps && Number.isFinite(video.duration) ? Math.ceil(video.duration * fps) - 1 : 0);

  const seek = (seconds: number) => {
    if (!video) return;
    pending.current = null;
    video.currentTime = fps ? seekTarget(frameAt(seconds, fps), fps) : seconds;
  };

  const actions: PlayerActions = {
    play: () => void video?.play().catch(() => undefined),
    pause: () => video?.pause(),
    seek,
    toggleMute: () => {
      if (video) video.muted = !video.muted;
    },
    setVolume: (volume) => {
      if (!video) return;
      video.volume = Math.min(1, Math.max(0, volume / 100));
      video.muted = volume === 0;
    },
  };

  function step(delta: number, seconds: boolean) {
    if (!video) return;
    video.pause();
    if (!fps) {
      const by = seconds ? delta : delta * FALLBACK_STEP_SECONDS;
      video.currentTime = Math.min(Math.max(0, video.currentTime + by), video.duration || Infinity);
      return;
    }
    // The last step's target while the video is still headed there (currentTime is the seek's target at once, in
    // both browsers), whatever the frame callbacks said meanwhile; otherwise the frame last presented.
    const headed = pending.current !== null && frameAt(video.currentTime, fps) === pending.current;
    const from = headed ? pending.current! : (onScreen.current ?? frameAt(video.currentTime, fps));
    const next = Math.min(Math.max(0, from + (seconds ? delta * Math.round(fps) : delta)), lastFrame());
    pending.current = next;
    video.currentTime = seekTarget(next, fps);
  }

  return { video, state, actions, frame, step };
}
