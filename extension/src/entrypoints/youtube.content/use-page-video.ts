import { useEffect, useRef, useState } from "react";
import type { PlayerActions, PlayerState } from "../../../../app/components/clip-range/clip-range-editor";
import type { ClipRange } from "../../../../app/domain/clip-range";
import { PLAYER_VIDEO } from "../../lib/youtube-page";

const EVENTS = ["timeupdate", "durationchange", "loadedmetadata", "play", "pause", "volumechange", "seeked"];

/**
 * The page's own <video> as the range editor's player. While the panel is open and the preview plays, the playhead
 * loops from the clip's end back to its start (checked every animation frame, not only on timeupdate).
 */
export function usePageVideo(signal: AbortSignal, range: ClipRange, looping: boolean) {
  const [video] = useState(
    () => document.querySelector<HTMLVideoElement>(PLAYER_VIDEO) ?? document.querySelector("video"),
  );
  const read = (): PlayerState => ({
    ready: !!video && Number.isFinite(video.duration) && video.duration > 0,
    playing: !!video && !video.paused,
    position: video?.currentTime ?? 0,
    duration: video && Number.isFinite(video.duration) ? video.duration : 0,
    muted: video?.muted ?? false,
    volume: Math.round((video?.volume ?? 1) * 100),
  });
  const [state, setState] = useState(read);
  const rangeRef = useRef(range);
  rangeRef.current = range;

  useEffect(() => {
    if (!video) return;
    const local = new AbortController();
    const stop = () => local.abort();
    signal.addEventListener("abort", stop, { once: true });
    const update = () => setState(read());
    for (const name of EVENTS) video.addEventListener(name, update, { signal: local.signal });
    update();
    let frame = 0;
    const tick = () => {
      const { start, end } = rangeRef.current;
      if (looping && !video.paused && end > start && video.currentTime >= end) video.currentTime = start;
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      signal.removeEventListener("abort", stop);
      stop();
    };
    // read() only closes over `video`, which never changes for one page.
  }, [video, signal, looping]);

  const actions: PlayerActions = {
    play: () => void video?.play().catch(() => undefined),
    pause: () => video?.pause(),
    seek: (seconds) => {
      if (video) video.currentTime = seconds;
    },
    toggleMute: () => {
      if (video) video.muted = !video.muted;
    },
    setVolume: (volume) => {
      if (!video) return;
      video.volume = Math.min(1, Math.max(0, volume / 100));
      video.muted = volume === 0;
    },
  };
  return { video, state, actions };
}
