/** Output formats and qualities: one list for the site, the API, the extension and the companion. */
export const VIDEO_FORMATS = ["mp4", "mkv", "webm", "mov", "avi"] as const;
export const AUDIO_FORMATS = ["mp3", "wav"] as const;
export const FORMATS = [...VIDEO_FORMATS, ...AUDIO_FORMATS, "gif"] as const;
export type Format = (typeof FORMATS)[number];

export const QUALITIES = ["144p", "240p", "360p", "480p", "720p", "1080p", "1440p", "2160p"] as const;
export type Quality = (typeof QUALITIES)[number];

export const FORMAT_LABELS: Record<Format, string> = {
  mp4: "MP4",
  mkv: "MKV",
  webm: "WebM",
  mov: "MOV",
  avi: "AVI",
  mp3: "MP3",
  wav: "WAV",
  gif: "GIF",
};

export const QUALITY_LABELS: Record<Quality, string> = {
  "144p": "144p",
  "240p": "240p",
  "360p": "360p",
  "480p": "480p",
  "720p": "720p",
  "1080p": "1080p",
  "1440p": "1440p",
  "2160p": "4K (2160p)",
};

export function isAudioFormat(format: Format): boolean {
  return (AUDIO_FORMATS as readonly string[]).includes(format);
}

/** Frame height in pixels for a quality label. */
export function qualityHeight(quality: Quality): number {
  return Number.parseInt(quality, 10);
}

/** Compare two qualities: negative when a is lower than b. */
export function compareQuality(a: Quality, b: Quality): number {
  return QUALITIES.indexOf(a) - QUALITIES.indexOf(b);
}
