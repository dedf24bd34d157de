import { useCallback, useEffect, useRef, useState } from "react";
import {
  EMBED_ORIGIN,
  LISTENING_MESSAGE,
  PLAYER_STATE,
  commandMessage,
  parsePlayerMessage,
  playerErrorMessage,
  type PlayerCommand,
} from "./youtube-embed";

/** How often the playhead is read (spec: 100 ms). */
export const POLL_MS = 100;
const HANDSHAKE_MS = 250;
const LOAD_TIMEOUT_MS = 20_000;
const LOAD_FAILED = "We couldn't load this video. Check the link and your connection, then try again.";

export interface PlayerStatus {
  /** True once the embed has reported the video's duration. */
  ready: boolean;
  duration: number;
  playing: boolean;
  muted: boolean;
  volume: number;
  error: string | null;
}

interface Callbacks {
  /** Every POLL_MS while ready, with the estimated playhead in seconds. */
  onTick?: (position: number, playing: boolean) => void;
  /** The video reached its very end. */
  onEnded?: () => void;
}

/**
 * Talks to a YouTube embed over postMessage. The embed reports the playhead only a few times a second, so between
 * reports the position is extrapolated from the last report while playing.
 */
export function useYouTubePlayer(defaultVolume: number, callbacks: Callbacks) {
  const iframeRef = useRef<HTMLIFrameElement>(null);
  const [status, setStatus] = useState<PlayerStatus>({
    ready: false,
    duration: 0,
    playing: false,
    muted: false,
    volume: defaultVolume,
    error: null,
  });
  const [position, setPosition] = useState(0);
  const clock = useRef({ time: 0, at: 0, advancing: false });
  const heard = useRef(false);
  const volumeSet = useRef(false);
  const latest = useRef(callbacks);
  useEffect(() => {
    latest.current = callbacks;
  });

  const send = useCallback((func: PlayerCommand, args: unknown[] = []) => {
    iframeRef.current?.contentWindow?.postMessage(commandMessage(func, args), EMBED_ORIGIN);
  }, []);

  const estimate = useCallback(() => {
    const c = clock.current;
    return c.advancing ? c.time + (performance.now() - c.at) / 1000 : c.time;
  }, []);

  // Handshake: tell the embed we listen until it answers.
  useEffect(() => {
    const timer = setInterval(() => {
      if (heard.current) clearInterval(timer);
      else iframeRef.current?.contentWindow?.postMessage(LISTENING_MESSAGE, EMBED_ORIGIN);
    }, HANDSHAKE_MS);
    const timeout = setTimeout(() => {
      setStatus((s) => (s.ready || s.error ? s : { ...s, error: LOAD_FAILED }));
    }, LOAD_TIMEOUT_MS);
    return () => {
      clearInterval(timer);
      clearTimeout(timeout);
    };
  }, []);

  useEffect(() => {
    function onMessage(event: MessageEvent) {
      if (!iframeRef.current || event.source !== iframeRef.current.contentWindow) return;
      const update = parsePlayerMessage(event.origin, event.data);
      if (!update) return;
      heard.current = true;

      if (update.currentTime !== undefined) {
        clock.current = { ...clock.current, time: update.currentTime, at: performance.now() };
      }
      if (update.playerState !== undefined) {
        const advancing = update.playerState === PLAYER_STATE.playing;
        clock.current = { time: estimate(), at: performance.now(), advancing };
        if (update.playerState === PLAYER_STATE.ended) latest.current.onEnded?.();
      }
      if ((update.ready || update.duration) && !volumeSet.current) {
        volumeSet.current = true;
        send("setVolume", [defaultVolume]);
      }
      setStatus((s) => {
        const next = { ...s };
        if (update.duration !== undefined) next.duration = update.duration;
        next.ready = next.duration > 0;
        if (update.playerState !== undefined) {
          next.playing = update.playerState === PLAYER_STATE.playing || update.playerState === PLAYER_STATE.buffering;
        }
        if (update.volume !== undefined) next.volume = Math.round(update.volume);
        if (update.muted !== undefined) next.muted = update.muted;
        if (update.errorCode !== undefined) next.error = playerErrorMessage(update.errorCode);
        if (next.ready && s.error === LOAD_FAILED) next.error = null;
        return next;
      });
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [defaultVolume, estimate, send]);

  // Read the playhead every POLL_MS.
  useEffect(() => {
    if (!status.ready) return;
    const timer = setInterval(() => {
      const now = Math.min(estimate(), status.duration);
      setPosition(now);
      latest.current.onTick?.(now, clock.current.advancing);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [status.ready, status.duration, estimate]);

  const seek = useCallback(
    (seconds: number) => {
      send("seekTo", [seconds, true]);
      clock.current = { ...clock.current, time: seconds, at: performance.now() };
      setPosition(seconds);
    },
    [send],
  );

  const play = useCallback(() => {
    send("playVideo");
    setStatus((s) => ({ ...s, playing: true }));
  }, [send]);

  const pause = useCallback(() => {
    send("pauseVideo");
    clock.current = { time: estimate(), at: performance.now(), advancing: false };
    setStatus((s) => ({ ...s, playing: false }));
  }, [send, estimate]);

  const setVolume = useCallback(
    (volume: number) => {
      send("setVolume", [volume]);
      if (volume > 0) send("unMute");
      setStatus((s) => ({ ...s, volume, muted: volume > 0 ? false : s.muted }));
    },
    [send],
  );

  const toggleMute = useCallback(() => {
    const muted = !status.muted;
    send(muted ? "mute" : "unMute");
    setStatus((s) => ({ ...s, muted }));
  }, [send, status.muted]);

  return { iframeRef, status, position, play, pause, seek, setVolume, toggleMute };
}
