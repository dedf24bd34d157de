import { z } from "zod";
import { CancelledError, ClipError } from "../errors";
import { captionFilesFromYtDlp, type CaptionFile } from "./captions";
import { withEgressProxy } from "./egress-proxy";
import { ProcessFailed, runProcess } from "../ffmpeg";
import type { Guard } from "./net-guard";
import { YTDLP_NO_CONFIG } from "../host/tools";

/** yt-dlp resolves a page in a few seconds; a minute means it is stuck (network, a broken extractor). */
export const YTDLP_TIMEOUT_MS = 60_000;
/** YouTube changes often; a yt-dlp older than this is likely to fail. */
export const YTDLP_MAX_AGE_DAYS = 90;
export const YTDLP_UPDATE_HINT = "Update it: pipx upgrade yt-dlp (or yt-dlp -U, or your package manager).";

/**
 * The yt-dlp format selector for a wanted height. Up to 1080p H.264 is preferred (smart cut, plays everywhere);
 * above that YouTube has only VP9/AV1. `height<=H` never picks a taller stream; when the video is shorter than H
 * the tallest it has is used (nothing is upscaled); when everything is taller, the smallest one is scaled down.
 */
export function formatSelector(height: number | null): string {
  // Plain files only: the range proxy and input seeking need one URL per stream (no HLS playlists, no DASH
  // fragment lists).
  const p = "[protocol^=http][protocol!=http_dash_segments]";
  if (height === null) return `bv*${p}[vcodec^=avc1]+ba${p}[ext=m4a]/bv*${p}+ba${p}/b${p}`;
  const h = `[height<=${height}]${p}`;
  const fallback = `wv*${p}+ba${p}/w${p}`;
  if (height <= 1080) return `bv*${h}[vcodec^=avc1]+ba${p}[ext=m4a]/bv*${h}+ba${p}/b${h}/${fallback}`;
  return [
    `bv*${h}[vcodec^=vp09]+ba${p}`,
    `bv*${h}[vcodec^=vp9]+ba${p}`,
    `bv*${h}[vcodec^=av01]+ba${p}`,
    `bv*${h}+ba${p}`,
    `b${h}`,
    fallback,
  ].join("/");
}

const headersSchema = z.record(z.string(), z.unknown()).transform((h) => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (typeof v === "string") out[k] = v;
  return out;
});
const formatSchema = z.object({
  format_id: z.string().optional(),
  url: z.string(),
  ext: z.string().optional(),
  protocol: z.string().optional(),
  vcodec: z.string().nullable().optional(),
  acodec: z.string().nullable().optional(),
  height: z.number().nullable().optional(),
  http_headers: headersSchema.optional(),
});
const infoSchema = z.object({
  title: z.string().optional(),
  duration: z.number().nullable().optional(),
  is_live: z.boolean().nullable().optional(),
  live_status: z.string().nullable().optional(),
  url: z.string().optional(),
  http_headers: headersSchema.optional(),
  height: z.number().nullable().optional(),
  vcodec: z.string().nullable().optional(),
  acodec: z.string().nullable().optional(),
  format_id: z.string().optional(),
  requested_formats: z.array(formatSchema).optional(),
});

export interface ResolvedStream {
  url: string;
  headers: Record<string, string>;
  formatId: string | null;
  vcodec: string | null;
  acodec: string | null;
  height: number | null;
}

export interface Resolved {
  title: string;
  durationSeconds: number | null;
  /** The stream with the picture (or the single progressive file). */
  main: ResolvedStream;
  /** A separate audio-only stream (YouTube DASH), or null for a progressive format. */
  audio: ResolvedStream | null;
  /** The video's caption tracks and their files (subtitles, then automatic captions). */
  captions: CaptionFile[];
}

export const LIVE_MESSAGE = "Live streams can be clipped after they end.";

/** yt-dlp's error lines, mapped to what the user can do about them. Order matters: the first match wins. */
const FAILURES: [RegExp, string, string][] = [
  [
    /live event will begin|premieres in|is_live|this live stream|is live now|live stream recording/i,
    "source_live",
    LIVE_MESSAGE,
  ],
  [
    /private video|video is private/i,
    "source_private",
    "This video is private. ClipCut can only clip videos anyone with the link can watch.",
  ],
  [
    /confirm your age|age.restricted|inappropriate for some users/i,
    "source_sign_in",
    "This video is age-restricted and needs a signed-in YouTube account, which ClipCut does not use. Choose another video.",
  ],
  [
    /not made this video available in your country|geo.?restrict|not available (from|in) your (location|country)|blocked it in your country/i,
    "source_geo_blocked",
    "This video is not available in your country (geo-blocked).",
  ],
  [
    /sign in to confirm you.?re not a bot|sign in|login required|members.only|join this channel/i,
    "source_sign_in",
    "This video needs a signed-in account (members-only or a sign-in check). ClipCut cannot open it; try again later or choose another video.",
  ],
  [
    /removed by the uploader|has been removed|video unavailable|does not exist|account associated with this video has been terminated|HTTP Error 404/i,
    "source_unavailable",
    "This video is unavailable: it was deleted or removed. Check the link.",
  ],
  [
    /unable to download|urlopen error|transporterror|timed out|connection (refused|reset)|name resolution|getaddrinfo|network is unreachable|HTTP Error 5\d\d|ssl/i,
    "network",
    "Could not reach the video site (network error). Check your internet connection and try again.",
  ],
  [/requested format is not available/i, "source_unavailable", "No downloadable format of this video was found."],
  [/unsupported url/i, "unsupported_url", "This page is not a video ClipCut can open. Paste the video's own link."],
];

function lastErrorLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  return (lines.filter((l) => l.startsWith("ERROR:")).pop() ?? lines.pop() ?? "").replace(/^ERROR:\s*/, "").trim();
}

export function ytDlpFailure(stderr: string, staleWarning: string | null = null): ClipError {
  const line = lastErrorLine(stderr);
  for (const [pattern, code, message] of FAILURES) {
    if (pattern.test(line)) {
      // Old versions are the usual reason for sign-in checks and missing formats; say so.
      const hint = staleWarning && code !== "source_private" && code !== "source_live" ? ` ${staleWarning}` : "";
      return new ClipError(code, message + hint, 422);
    }
  }
  return new ClipError(
    "source_unavailable",
    `yt-dlp could not open this video: ${line || "unknown error"}.${staleWarning ? ` ${staleWarning}` : ""}`,
    422,
  );
}

/** A warning when yt-dlp's version (a date, "2025.01.15") is older than YTDLP_MAX_AGE_DAYS; null otherwise. */
export function ytDlpAgeWarning(version: string | null, now = new Date()): string | null {
  const m = version ? /^(\d{4})\.(\d{1,2})\.(\d{1,2})/.exec(version.trim()) : null;
  if (!m) return null;
  const released = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const days = Math.floor((now.getTime() - released) / 86_400_000);
  if (days <= YTDLP_MAX_AGE_DAYS) return null;
  return `yt-dlp ${version} is ${days} days old; YouTube changes often and old versions stop working. ${YTDLP_UPDATE_HINT}`;
}

function stream(f: z.infer<typeof formatSchema>): ResolvedStream {
  return {
    url: f.url,
    headers: f.http_headers ?? {},
    formatId: f.format_id ?? null,
    vcodec: f.vcodec && f.vcodec !== "none" ? f.vcodec : null,
    acodec: f.acodec && f.acodec !== "none" ? f.acodec : null,
    height: f.height ?? null,
  };
}

/** Runs `yt-dlp -J` with the selector for `height`; maps its failures and refuses live streams. */
export async function resolveWithYtDlp(
  ytDlp: string,
  pageUrl: string,
  options: {
    height: number | null;
    signal?: AbortSignal;
    /** The age warning added to a failure; the CLI passes it while its `--version` run is still going. */
    staleWarning?: string | null | Promise<string | null>;
    timeoutMs?: number;
    /** What yt-dlp may connect to: every connection it makes goes through a proxy that checks it. */
    guard?: Guard;
  },
): Promise<Resolved> {
  const { stdout } = await withEgressProxy(options.guard ?? { allowPrivate: false }, (proxy) =>
    runProcess(
      ytDlp,
      // The page URL last (after "--"): nothing in it is read as an option.
      [
        ...YTDLP_NO_CONFIG,
        "-J",
        "--no-playlist",
        "--no-warnings",
        "--proxy",
        proxy.url,
        "-f",
        formatSelector(options.height),
        "--",
        pageUrl,
      ],
      { signal: options.signal, timeoutMs: options.timeoutMs ?? YTDLP_TIMEOUT_MS },
    ).catch((error: unknown) => {
      // A refused connection is the reason yt-dlp failed: say that, not "network error".
      if (error instanceof ProcessFailed && proxy.refusals[0]) throw proxy.refusals[0];
      throw error;
    }),
  ).catch(async (error: unknown) => {
    if (error instanceof CancelledError) throw error;
    if (error instanceof ClipError && error.code === "source_not_allowed") throw error;
    if (error instanceof ProcessFailed) throw ytDlpFailure(error.stderr, (await options.staleWarning) ?? null);
    if (error instanceof ClipError && error.code === "timeout") {
      throw new ClipError(
        "network",
        "yt-dlp did not answer within a minute (network or site trouble). Try again.",
        504,
      );
    }
    throw error;
  });
  let parsed: z.infer<typeof infoSchema>;
  let json: unknown;
  try {
    json = JSON.parse(stdout);
    parsed = infoSchema.parse(json);
  } catch {
    throw new ClipError("source_unavailable", "yt-dlp answered with something that is not a video description.", 422);
  }
  if (parsed.is_live || ["is_live", "is_upcoming", "post_live"].includes(parsed.live_status ?? "")) {
    throw new ClipError("source_live", LIVE_MESSAGE, 422);
  }
  const title = parsed.title ?? "clip";
  const durationSeconds = parsed.duration ?? null;
  const requested = parsed.requested_formats;
  if (requested && requested.length > 0) {
    const video = requested.find((f) => f.vcodec && f.vcodec !== "none") ?? requested[0]!;
    const audio = requested.find((f) => f !== video && f.acodec && f.acodec !== "none") ?? null;
    const main = stream(video);
    const captions = captionFilesFromYtDlp(json, main.headers);
    return { title, durationSeconds, main, audio: audio ? stream(audio) : null, captions };
  }
  if (!parsed.url) throw new ClipError("source_unavailable", "yt-dlp found no downloadable format.", 422);
  const main = stream({
    url: parsed.url,
    format_id: parsed.format_id,
    vcodec: parsed.vcodec,
    acodec: parsed.acodec,
    height: parsed.height,
    http_headers: parsed.http_headers,
  });
  return { title, durationSeconds, main, audio: null, captions: captionFilesFromYtDlp(json, main.headers) };
}
