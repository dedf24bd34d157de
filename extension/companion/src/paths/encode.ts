import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Format } from "../../../../app/domain/media";
import type { VideoInfo } from "../source/probe";

/** Container muxer per output format. */
export const MUXERS: Record<Format, string> = {
  mp4: "mp4",
  mkv: "matroska",
  webm: "webm",
  mov: "mov",
  avi: "avi",
  mp3: "mp3",
  wav: "wav",
  gif: "gif",
};

export const EXTENSIONS: Record<Format, string> = {
  mp4: "mp4",
  mkv: "mkv",
  webm: "webm",
  mov: "mov",
  avi: "avi",
  mp3: "mp3",
  wav: "wav",
  gif: "gif",
};

/** Video codecs each container takes by stream copy (the copy and smart strategies keep the source codec). */
const COPYABLE_VIDEO: Partial<Record<Format, readonly string[]>> = {
  mp4: ["h264", "hevc", "av1", "vp9"],
  mov: ["h264", "hevc"],
  mkv: ["h264", "hevc", "av1", "vp8", "vp9"],
  webm: ["vp8", "vp9", "av1"],
};

export function canCopyVideo(format: Format, codec: string): boolean {
  return COPYABLE_VIDEO[format]?.includes(codec) ?? false;
}

/** Audio codecs each container takes by stream copy (the copy strategy keeps the source's audio as is). */
const COPYABLE_AUDIO: Partial<Record<Format, readonly string[]>> = {
  mp4: ["aac", "mp3"],
  mov: ["aac", "mp3"],
  mkv: ["aac", "mp3", "opus", "vorbis", "ac3", "flac"],
  webm: ["opus", "vorbis"],
};

export function canCopyAudio(format: Format, codec: string): boolean {
  return COPYABLE_AUDIO[format]?.includes(codec) ?? false;
}

/**
 * Smart cut and re-encode re-encode the audio for video outputs: cheap next to the picture, and it makes the audio
 * sample-accurate and seamless. Copy keeps it when the container takes it (see copyPlan).
 */
export function audioCodecArgs(format: Format, sourceBitRate?: number | null): string[] {
  // A smart cut passes the source's rate: its audio is then encoded at that rate (16 kb/s steps, 64 kb/s at least)
  // up to the usual one, so a clip that copies the picture does not spend more on the sound than the source did
  // (160 kb/s AAC for a 96 kb/s source made a 360p clip 7 % larger than a copy).
  const rate = (usual: number) =>
    `${sourceBitRate && sourceBitRate > 0 ? Math.min(usual, Math.max(64, Math.ceil(sourceBitRate / 16000) * 16)) : usual}k`;
  switch (format) {
    case "webm":
      return ["-c:a", "libopus", "-b:a", rate(128)];
    case "avi":
    case "mp3":
      return ["-c:a", "libmp3lame", "-q:a", "2"];
    case "wav":
      return ["-c:a", "pcm_s16le"];
    case "gif":
      return ["-an"];
    default:
      return ["-c:a", "aac", "-b:a", rate(160)];
  }
}

/** Video encoder for the re-encode strategy. Speed matters more than a few percent of size for a clip tool. */
export function videoCodecArgs(format: Format): string[] {
  switch (format) {
    case "webm":
      return [
        "-c:v",
        "libvpx-vp9",
        "-deadline",
        "realtime",
        "-cpu-used",
        "8",
        "-row-mt",
        "1",
        "-crf",
        "32",
        "-b:v",
        "0",
      ];
    case "avi":
      // MPEG-4 Part 2 is what AVI players expect; AVI cannot carry B-frame timing reliably.
      return ["-c:v", "mpeg4", "-vtag", "xvid", "-q:v", "3", "-bf", "0"];
    default:
      return ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"];
  }
}

export function containerArgs(format: Format): string[] {
  const args = ["-f", MUXERS[format]];
  if (format === "mp4" || format === "mov") args.push("-movflags", "+faststart");
  return args;
}

const H264_PROFILES: Record<string, string> = {
  Baseline: "baseline",
  "Constrained Baseline": "baseline",
  Main: "main",
  High: "high",
  "High 10": "high10",
  "High 4:2:2": "high422",
  "High 4:4:4 Predictive": "high444",
};

/**
 * x264 settings for the re-encoded head/tail of a smart cut: same profile, level, pixel format, colour
 * description and frame size as the source, no B-frames (so decode order equals display order and the
 * join needs no reordering), one packet per frame.
 *
 * Speed: the head is most of a smart cut's own work, so it uses x264's superfast preset (about twice veryfast's
 * speed: no trellis, simpler motion search, CABAC and deblocking kept) at CRF 16, which on its own would spend
 * 2-4x the source's bits on the few frames it replaces. `sourceBitsPerSecond` (the source's rate over the stage)
 * caps it with VBV at 1.5x that rate, half a second of buffer: the join stays invisible (the frames are at the
 * source's bit budget, SSIM ≥ 0.997 against the source frames in the bench) and the clip stays copy-sized.
 */
export function matchingH264Args(video: VideoInfo, sourceBitsPerSecond?: number): string[] {
  const args = ["-c:v", "libx264", "-preset", "superfast", "-crf", "16", "-bf", "0"];
  if (sourceBitsPerSecond && sourceBitsPerSecond > 0) {
    const cap = Math.round((sourceBitsPerSecond * 1.5) / 1000);
    args.push("-maxrate", `${cap}k`, "-bufsize", `${Math.round(cap / 2)}k`);
  }
  const profile = video.profile ? H264_PROFILES[video.profile] : undefined;
  if (profile) args.push("-profile:v", profile);
  if (video.level) args.push("-level:v", (video.level / 10).toFixed(1));
  if (video.pixFmt) args.push("-pix_fmt", video.pixFmt);
  if (video.colorRange) args.push("-color_range", video.colorRange);
  if (video.colorSpace) args.push("-colorspace", video.colorSpace);
  if (video.colorTransfer) args.push("-color_trc", video.colorTransfer);
  if (video.colorPrimaries) args.push("-color_primaries", video.colorPrimaries);
  return args;
}

const VP9_PROFILES: Record<string, string> = { "Profile 0": "0", "Profile 1": "1", "Profile 2": "2", "Profile 3": "3" };

/** Encoder threads: FFmpeg gives libvpx one thread unless told (-row-mt alone does nothing then). */
const VPX_THREADS = String(Math.min(8, Math.max(2, availableParallelism())));

/**
 * libvpx-vp9 settings for the re-encoded ends of a VP9 smart cut: same profile, pixel format (bit depth, chroma),
 * colour description and size; no alt-ref (hidden) frames and no look-ahead, so every packet is one shown frame;
 * constant quality high enough not to stand out, at a speed that keeps a 1440p GOP quick: libvpx's "good" mode
 * ran below 1 frame/s at 1440p on a loaded 2-core machine (a 5 s GOP took minutes), "realtime" is ~10× faster, and
 * speed 8 (its fastest) with one thread per core and row multithreading is what makes a 5 s head of a 1440p clip
 * cost less than a fifth of re-encoding the whole 20 s clip (docs/decisions/007).
 */
export function matchingVp9Args(video: VideoInfo, sourceBitsPerSecond?: number): string[] {
  const args = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-threads", VPX_THREADS];
  args.push("-row-mt", "1", "-tile-columns", "2");
  // Constrained quality: CRF 18 alone spent ~2.7x the source's bits on a 1440p head (a 20 s clip came out 1.37x the
  // plain copy's size); capped at twice the source's rate the head is about its source size (SSIM 0.994 against the
  // source frames, 0.998 uncapped) and the clip stays within 1.1x of a copy. libvpx's realtime mode undershoots
  // the cap rather than overshoots it.
  const cap = sourceBitsPerSecond && sourceBitsPerSecond > 0 ? `${Math.round((sourceBitsPerSecond * 2) / 1000)}k` : "0";
  args.push("-crf", "18", "-b:v", cap, "-auto-alt-ref", "0", "-lag-in-frames", "0", "-g", "9999");
  const profile = video.profile ? VP9_PROFILES[video.profile] : undefined;
  if (profile) args.push("-profile:v", profile);
  if (video.pixFmt) args.push("-pix_fmt", video.pixFmt);
  if (video.colorRange) args.push("-color_range", video.colorRange);
  if (video.colorSpace) args.push("-colorspace", video.colorSpace);
  if (video.colorTransfer) args.push("-color_trc", video.colorTransfer);
  if (video.colorPrimaries) args.push("-color_primaries", video.colorPrimaries);
  return args;
}

const FONT_CANDIDATES = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
  "/Library/Fonts/Arial Bold.ttf",
  "/System/Library/Fonts/Supplemental/Arial Bold.ttf",
  "C:\\Windows\\Fonts\\arialbd.ttf",
];

function escapeFilterPath(path: string): string {
  return path.replace(/\\/g, "/").replace(/:/g, "\\\\:").replace(/'/g, "\\\\'");
}

/** The Free plan's mark: "ClipCut" bottom right, sized to the frame so it reads at any quality. */
export function watermarkFilter(height: number): string {
  const size = Math.max(12, Math.round(height / 16));
  const margin = Math.max(4, Math.round(height / 32));
  const font = FONT_CANDIDATES.find((f) => existsSync(f));
  const fontArg = font ? `fontfile='${escapeFilterPath(font)}'` : "font=Sans";
  return (
    `drawtext=${fontArg}:text='ClipCut':fontsize=${size}:fontcolor=white@0.85` +
    `:box=1:boxcolor=black@0.45:boxborderw=${Math.round(size / 4)}` +
    `:x=w-tw-${margin}:y=h-th-${margin}`
  );
}

/** Output height: the requested quality, never above the source (no upscaling); even for the encoders. */
export function targetHeight(sourceHeight: number, requested: number | null): number {
  const h = requested === null ? sourceHeight : Math.min(requested, sourceHeight);
  return h % 2 === 0 ? h : h - 1;
}
