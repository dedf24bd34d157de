import { stat } from "node:fs/promises";
import { basename, extname, isAbsolute } from "node:path";
import { CancelledError, ClipError } from "../errors";
import { assertPublicUrl, pinnedGet, type Guard } from "./net-guard";
import { installHint, ytDlpVersion, type Tools } from "../host/tools";
import type { CaptionFile } from "./captions";
import { resolveWithYtDlp } from "./ytdlp";

/** Where ffmpeg reads the media from, with the options that make that safe. */
export interface InputSpec {
  /** Path or URL handed to ffmpeg's -i. */
  url: string;
  kind: "file" | "http";
  /** Extra request headers (from yt-dlp for page URLs). */
  headers: Record<string, string>;
  /** A human title for file names. */
  title: string;
  /** The original source string (page URL, media URL or path). */
  original: string;
  /** Served by the local range proxy (loopback, small socket buffers). */
  viaProxy?: boolean;
  /** A separate audio-only stream cut alongside (YouTube DASH: video-only + audio-only). */
  audio?: InputSpec;
  /** What the range proxy may connect to (checked again on every redirect it follows); private refused by default. */
  guard?: Guard;
  /** Height of the format yt-dlp picked, when the source is a page. */
  resolvedHeight?: number | null;
  /** The page's caption tracks (yt-dlp's); none for a media URL or a file. */
  captions?: CaptionFile[];
}

const MEDIA_EXTENSIONS = new Set([
  ".mp4",
  ".m4v",
  ".mov",
  ".mkv",
  ".webm",
  ".avi",
  ".ts",
  ".m4a",
  ".mp3",
  ".wav",
  ".aac",
  ".flac",
  ".ogg",
  ".opus",
]);

/**
 * The demuxers a source may be read with: plain containers only. Playlist and manifest formats (hls, dash, concat,
 * …) open the URLs written inside them on their own, past the guard, so they are never allowed. ffmpeg matches any
 * of a demuxer's names ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
 */
export const SOURCE_DEMUXERS = "mov,mp4,matroska,webm,avi,flv,asf,mxf,mpegts,mpeg,mp3,aac,wav,flac,ogg";

/**
 * ffmpeg input options. Local files: the file protocol only. Remote sources: only the loopback range proxy, over
 * plain http, never the origin's URL (ffmpeg would resolve it again and follow its redirects unguarded).
 */
export function inputArgs(input: InputSpec, deepProbe = false): string[] {
  const formats = ["-format_whitelist", SOURCE_DEMUXERS];
  if (input.kind === "file") return ["-protocol_whitelist", "file", ...formats, "-i", input.url];
  if (!input.viaProxy || !/^http:\/\/127\.0\.0\.1:\d+\//.test(input.url)) {
    throw new ClipError(
      "source_not_allowed",
      "Remote sources are read through the companion's guarded proxy only.",
      500,
    );
  }
  const args = ["-protocol_whitelist", "http,tcp", ...formats, "-reconnect", "1", "-reconnect_on_network_error", "1"];
  // On loopback a small receive window costs no speed and keeps abandoned reads from buffering megabytes.
  args.push("-recv_buffer_size", "131072");
  // MP4/MOV/MKV describe their streams in the header; probing into the payload would only cost bytes.
  if (!deepProbe) args.push("-probesize", "32768");
  return [...args, "-i", input.url];
}

function titleFromPath(p: string): string {
  const base = basename(p);
  const ext = extname(base);
  return (ext ? base.slice(0, -ext.length) : base) || "clip";
}

/** Video sites whose pages always go to yt-dlp (no need to ask the server what the URL is). */
const PAGE_HOSTS = /(^|\.)(youtube\.com|youtu\.be|youtube-nocookie\.com|vimeo\.com|twitch\.tv|dailymotion\.com)$/i;

/** Looks at the URL (known video sites, extension, then Content-Type) to tell a media file from a web page. */
async function looksLikeMedia(url: URL, guard: Guard, signal?: AbortSignal): Promise<boolean> {
  if (PAGE_HOSTS.test(url.hostname)) return false;
  if (MEDIA_EXTENSIONS.has(extname(url.pathname).toLowerCase())) return true;
  try {
    const timeout = AbortSignal.timeout(8000);
    const res = await pinnedGet(url.href, {
      ...guard,
      headers: { Range: "bytes=0-0" },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    res.destroy();
    const type = String(res.headers["content-type"] ?? "");
    return /^(video|audio)\//i.test(type) || /mpegurl|octet-stream|mp4/i.test(type);
  } catch {
    return false;
  }
}

export interface ResolveOptions {
  signal?: AbortSignal;
  /** Wanted picture height (the job's quality); null takes the best the page has. */
  height?: number | null;
  /** Loopback/private addresses allowed (tests, local demos): --allow-private-sources. */
  allowPrivate?: boolean;
  /** The whole guard, when a test stands loopback in for the internet (wins over allowPrivate). */
  guard?: Guard;
  /** Local paths allowed: always for the CLI; for serve only with --allow-private-sources. */
  allowLocalFiles?: boolean;
  /** The yt-dlp age warning, added to its failures (an old yt-dlp is the usual cause); may still be coming. */
  ytDlpWarning?: string | null | Promise<string | null>;
  /** A `yt-dlp --version` run the caller already started (the CLI's, for the warning): reused, not run again. */
  ytDlpVersion?: Promise<string | null>;
}

/**
 * yt-dlp programs seen working. A page is resolved without asking yt-dlp for its version first (`--version`
 * starts Python: a few hundred ms before every first page); only when the resolve fails is a program not yet seen
 * working asked, so that a missing yt-dlp gets its install instructions instead of that failure.
 */
const presentYtDlp = new Set<string>();

const guardFor = (options: ResolveOptions): Guard => options.guard ?? { allowPrivate: options.allowPrivate ?? false };

async function pageSource(tools: Tools, pageUrl: string, options: ResolveOptions): Promise<InputSpec> {
  const guard = guardFor(options);
  const resolved = await resolveWithYtDlp(tools.ytDlp, pageUrl, {
    height: options.height ?? null,
    signal: options.signal,
    staleWarning: options.ytDlpWarning ?? null,
    guard,
  }).catch(async (error: unknown) => {
    if (!(error instanceof CancelledError) && !presentYtDlp.has(tools.ytDlp)) {
      if (!(await (options.ytDlpVersion ?? ytDlpVersion(tools.ytDlp)))) {
        throw new ClipError(
          "missing_tool",
          `Cannot open ${pageUrl}: it is not a media file.\n${installHint("yt-dlp")}`,
          422,
        );
      }
      presentYtDlp.add(tools.ytDlp);
    }
    throw error;
  });
  presentYtDlp.add(tools.ytDlp);
  // The media URLs yt-dlp hands back are sources too: they must be public like the page.
  await assertPublicUrl(resolved.main.url, guard);
  if (resolved.audio) await assertPublicUrl(resolved.audio.url, guard);
  const common = { kind: "http" as const, title: resolved.title, original: pageUrl, guard };
  return {
    ...common,
    url: resolved.main.url,
    headers: resolved.main.headers,
    audio: resolved.audio ? { ...common, url: resolved.audio.url, headers: resolved.audio.headers } : undefined,
    resolvedHeight: resolved.main.height,
    captions: resolved.captions,
  };
}

/** Turns a source string (media URL, page URL, local path) into something ffmpeg can read. */
export async function resolveSource(tools: Tools, source: string, options: ResolveOptions = {}): Promise<InputSpec> {
  const guard = guardFor(options);
  if (/^https?:\/\//i.test(source)) {
    // Known video sites are public by definition: straight to yt-dlp (which reports its own network errors).
    if (PAGE_HOSTS.test(new URL(source).hostname)) return pageSource(tools, source, options);
    const url = await assertPublicUrl(source, guard);
    if (await looksLikeMedia(url, guard, options.signal)) {
      return {
        url: url.href,
        kind: "http",
        headers: {},
        title: titleFromPath(decodeURIComponent(url.pathname)),
        original: source,
        guard,
      };
    }
    return pageSource(tools, source, options);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(source) && !/^[A-Za-z]:[\\/]/.test(source)) {
    throw new ClipError("invalid_source", "Only http(s) URLs and local file paths are supported.", 400);
  }
  if (!(options.allowLocalFiles ?? true)) {
    throw new ClipError(
      "source_not_allowed",
      "The companion server does not read local files unless started with --allow-private-sources; use the CLI (clipcut-companion cut) for files on this computer.",
      422,
    );
  }
  if (!isAbsolute(source)) {
    throw new ClipError("invalid_source", "Local sources must be absolute paths.", 400);
  }
  const info = await stat(source).catch(() => null);
  if (!info?.isFile()) throw new ClipError("source_not_found", `No such file: ${source}`, 404);
  // The file: prefix keeps a path containing ':' from being read as a protocol.
  return { url: `file:${source}`, kind: "file", headers: {}, title: titleFromPath(source), original: source };
}
