/**
 * Driving a YouTube embed without the iframe_api script (the CSP allows only our own scripts): the player
 * page accepts JSON commands over postMessage when loaded with enablejsapi=1, and answers with
 * initialDelivery / infoDelivery / onReady / onStateChange / onError messages once we say we are listening.
 */
export const EMBED_ORIGIN = "https://www.youtube-nocookie.com";
const PLAYER_ORIGINS = new Set([EMBED_ORIGIN, "https://www.youtube.com"]);

/** A stable id for our one player, echoed by the embed. */
export const WIDGET_ID = 1;

export function playerEmbedUrl(videoId: string, origin: string): string {
  const params = new URLSearchParams({
    enablejsapi: "1",
    origin,
    rel: "0",
    playsinline: "1",
    modestbranding: "1",
  });
  return `${EMBED_ORIGIN}/embed/${encodeURIComponent(videoId)}?${params.toString()}`;
}

export type PlayerCommand = "playVideo" | "pauseVideo" | "seekTo" | "setVolume" | "mute" | "unMute";

export function commandMessage(func: PlayerCommand, args: unknown[] = []): string {
  return JSON.stringify({ event: "command", func, args, id: WIDGET_ID, channel: "widget" });
}

export const LISTENING_MESSAGE = JSON.stringify({ event: "listening", id: WIDGET_ID, channel: "widget" });

/** YouTube's player states. */
export const PLAYER_STATE = { unstarted: -1, ended: 0, playing: 1, paused: 2, buffering: 3, cued: 5 } as const;

/** The fields of a player message we use; everything else is ignored. */
export interface PlayerUpdate {
  ready?: true;
  duration?: number;
  currentTime?: number;
  playerState?: number;
  volume?: number;
  muted?: boolean;
  errorCode?: number;
}

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** Reads a postMessage event from the embed; null when it is not one (wrong origin, not JSON, unknown shape). */
export function parsePlayerMessage(origin: string, raw: unknown): PlayerUpdate | null {
  if (!PLAYER_ORIGINS.has(origin)) return null;
  let message: unknown = raw;
  if (typeof raw === "string") {
    try {
      message = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (typeof message !== "object" || message === null) return null;
  const { event, info } = message as { event?: unknown; info?: unknown };
  switch (event) {
    case "onReady":
      return { ready: true };
    case "onStateChange":
      return { playerState: num(info) };
    case "onError":
      return { errorCode: num(info) ?? -1 };
    case "initialDelivery":
    case "infoDelivery": {
      if (typeof info !== "object" || info === null) return {};
      const data = info as Record<string, unknown>;
      const duration = num(data.duration);
      const update: PlayerUpdate = {
        duration: duration !== undefined && duration > 0 ? duration : undefined,
        currentTime: num(data.currentTime),
        playerState: num(data.playerState),
        volume: num(data.volume),
        muted: typeof data.muted === "boolean" ? data.muted : undefined,
      };
      return update;
    }
    default:
      return {};
  }
}

/** Messages for YouTube's error codes. */
export function playerErrorMessage(code: number): string {
  if (code === 100) return "This video was not found. It may be private or removed.";
  if (code === 101 || code === 150) return "The owner of this video does not allow it to be played on other sites.";
  if (code === 2) return "Invalid YouTube URL. Please enter a valid link.";
  return "This video could not be played. Please try another link.";
}
