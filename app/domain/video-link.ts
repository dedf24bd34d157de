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
