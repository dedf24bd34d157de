/** YouTube link parsing: youtu.be/ID, /v/ID, /u/x/ID, /embed/ID, watch?v=ID and &v=ID. */
export const INVALID_YOUTUBE_URL = "Invalid YouTube URL. Please enter a valid link.";

const YOUTUBE_ID = /^.*(?:youtu\.be\/|\/v\/|\/u\/\w\/|\/embed\/|watch\?v=|&v=)([^#&?/]*).*/;
const ID_CHARS = /^[A-Za-z0-9_-]{11}$/;

/** The 11-character video id, or null when the link is not a YouTube video link. */
export function extractYouTubeId(url: string): string | null {
  const match = YOUTUBE_ID.exec(url.trim());
  const id = match?.[1];
  return id && ID_CHARS.test(id) ? id : null;
}

export function youTubeEmbedUrl(id: string, startSeconds?: number, endSeconds?: number): string {
  const params = new URLSearchParams({ rel: "0" });
  if (startSeconds !== undefined) params.set("start", String(Math.floor(startSeconds)));
  if (endSeconds !== undefined) params.set("end", String(Math.ceil(endSeconds)));
  return `https://www.youtube-nocookie.com/embed/${id}?${params.toString()}`;
}

/**
 * What a clip's video link may be: a YouTube link (youtube.com, youtu.be; the site's player and the extension) or a
 * direct http(s) link to a media file (the companion downloads it). Nothing else is stored or rendered as a link:
 * no javascript:, data:, file: or other schemes, and no user:password@ in the address.
 */
export const SUPPORTED_VIDEO_SOURCES =
  "a YouTube link (youtube.com or youtu.be) or a direct http(s) link to a video file";
export const INVALID_VIDEO_URL = `Video URL must be ${SUPPORTED_VIDEO_SOURCES}.`;

/** The URL when it is an absolute http(s) address without credentials, else null. Never throws. */
export function parseHttpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || !url.hostname) return null;
  return url;
}

/** The href to render for a stored video URL: only http(s), whatever was stored before validation existed. */
export function safeVideoHref(value: string): string | null {
  return parseHttpUrl(value)?.href ?? null;
}
