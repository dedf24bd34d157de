import { stat } from "node:fs/promises";
import { basename, extname, isAbsolute } from "node:path";
import { ClipError } from "./errors";
import { runProcess, type RunOptions } from "./ffmpeg";
import { installHint, toolVersion, type Tools } from "./tools";

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

/** ffmpeg input options: only the protocols the source needs (an HTTP playlist must not open local files). */
export function inputArgs(input: InputSpec, deepProbe = false): string[] {
  if (input.kind === "file") return ["-protocol_whitelist", "file", "-i", input.url];
  const args = ["-protocol_whitelist", "http,https,tcp,tls", "-reconnect", "1", "-reconnect_on_network_error", "1"];
  // On loopback a small receive window costs no speed and keeps abandoned reads from buffering megabytes.
  if (input.viaProxy) args.push("-recv_buffer_size", "131072");
  // MP4/MOV/MKV describe their streams in the header; probing into the payload would only cost bytes.
  if (!deepProbe) args.push("-probesize", "32768");
  const headers = Object.entries(input.headers)
    .filter(([k]) => k.toLowerCase() !== "user-agent")
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const agent = Object.entries(input.headers).find(([k]) => k.toLowerCase() === "user-agent")?.[1];
  if (agent) args.push("-user_agent", agent);
  if (headers) args.push("-headers", headers);
  return [...args, "-i", input.url];
}

function titleFromPath(p: string): string {
  const base = basename(p);
  const ext = extname(base);
  return (ext ? base.slice(0, -ext.length) : base) || "clip";
}

/** Looks at the URL (extension, then Content-Type) to tell a media file from a web page. */
async function looksLikeMedia(url: URL, signal?: AbortSignal): Promise<boolean> {
  if (MEDIA_EXTENSIONS.has(extname(url.pathname).toLowerCase())) return true;
  try {
    const timeout = AbortSignal.timeout(8000);
    const res = await fetch(url, {
      method: "GET",
      headers: { Range: "bytes=0-0" },
      redirect: "follow",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    await res.body?.cancel();
    const type = res.headers.get("content-type") ?? "";
    return /^(video|audio)\//i.test(type) || /mpegurl|octet-stream|mp4/i.test(type);
  } catch {
    return false;
  }
}

/** Asks yt-dlp for one progressive (audio+video, plain HTTP) format of a video page. */
async function resolveWithYtDlp(tools: Tools, pageUrl: string, options: RunOptions): Promise<InputSpec> {
  if (!(await toolVersion(tools.ytDlp, "--version"))) {
    throw new ClipError(
      "missing_tool",
      `Cannot open ${pageUrl}: it is not a media file.\n${installHint("yt-dlp")}`,
      422,
    );
  }
  const { stdout } = await runProcess(
    tools.ytDlp,
    ["-J", "--no-playlist", "--no-warnings", "-f", "b[ext=mp4][protocol^=http]/b[protocol^=http]/b", pageUrl],
    { signal: options.signal },
  ).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    throw new ClipError("source_unavailable", `yt-dlp could not resolve ${pageUrl}: ${message}`, 422);
  });
  const info = JSON.parse(stdout) as { url?: unknown; title?: unknown; http_headers?: unknown };
  if (typeof info.url !== "string") {
    throw new ClipError("source_unavailable", `yt-dlp found no single downloadable format for ${pageUrl}.`, 422);
  }
  const headers: Record<string, string> = {};
  if (info.http_headers && typeof info.http_headers === "object") {
    for (const [k, v] of Object.entries(info.http_headers)) if (typeof v === "string") headers[k] = v;
  }
  return {
    url: info.url,
    kind: "http",
    headers,
    title: typeof info.title === "string" ? info.title : "clip",
    original: pageUrl,
  };
}

/** Turns a source string (media URL, page URL, local path) into something ffmpeg can read. */
export async function resolveSource(tools: Tools, source: string, options: RunOptions = {}): Promise<InputSpec> {
  if (/^https?:\/\//i.test(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new ClipError("invalid_source", `Not a valid URL: ${source}`, 400);
    }
    if (await looksLikeMedia(url, options.signal)) {
      return {
        url: url.href,
        kind: "http",
        headers: {},
        title: titleFromPath(decodeURIComponent(url.pathname)),
        original: source,
      };
    }
    return resolveWithYtDlp(tools, source, options);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    throw new ClipError("invalid_source", "Only http(s) URLs and local file paths are supported.", 400);
  }
  if (!isAbsolute(source)) {
    throw new ClipError("invalid_source", "Local sources must be absolute paths.", 400);
  }
  const info = await stat(source).catch(() => null);
  if (!info?.isFile()) throw new ClipError("source_not_found", `No such file: ${source}`, 404);
  // The file: prefix keeps a path containing ':' from being read as a protocol.
  return { url: `file:${source}`, kind: "file", headers: {}, title: titleFromPath(source), original: source };
}
