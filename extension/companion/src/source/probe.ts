import { z } from "zod";
import { ClipError } from "../errors";
import { runProcess, type RunOptions } from "../ffmpeg";
import { withRangeProxy } from "./range-proxy";
import { inputArgs, type InputSpec } from "./source";

export interface VideoInfo {
  index: number;
  codec: string;
  profile: string | null;
  /** H.264 level_idc, e.g. 40 for level 4.0. */
  level: number | null;
  pixFmt: string | null;
  width: number;
  height: number;
  frameRate: number;
  /** Frames a decoder holds back to reorder B-frames (ffprobe's has_b_frames; 0 without B-frames or unknown). */
  reorderFrames: number;
  colorRange: string | null;
  colorSpace: string | null;
  colorTransfer: string | null;
  colorPrimaries: string | null;
  bitRate: number | null;
}

export interface AudioInfo {
  index: number;
  codec: string;
  sampleRate: number;
  channels: number;
  bitRate: number | null;
}

export interface MediaInfo {
  durationSeconds: number;
  formatName: string;
  bitRate: number | null;
  video: VideoInfo | null;
  audio: AudioInfo | null;
  /**
   * Read in-process from the container's header (index-probe.ts), not by ffprobe: the fields only the ffmpeg plans
   * use are unknown, so those paths probe with ffprobe first.
   */
  fromIndex?: boolean;
}

const num = z.union([z.number(), z.string()]).transform((v) => Number(v));
const streamSchema = z.object({
  index: z.number(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  profile: z.string().optional(),
  level: z.number().optional(),
  pix_fmt: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  has_b_frames: z.number().optional(),
  color_range: z.string().optional(),
  color_space: z.string().optional(),
  color_transfer: z.string().optional(),
  color_primaries: z.string().optional(),
  bit_rate: num.optional(),
  sample_rate: num.optional(),
  channels: z.number().optional(),
  disposition: z.object({ attached_pic: z.number().optional() }).partial().optional(),
});
const probeSchema = z.object({
  streams: z.array(streamSchema).default([]),
  format: z.object({ format_name: z.string(), duration: num.optional(), bit_rate: num.optional() }),
});

function rate(value: string | undefined): number {
  const [n, d] = (value ?? "").split("/").map(Number);
  return n && d ? n / d : 0;
}

/** A header probe takes well under a second; a minute means the server is stuck. */
const PROBE_TIMEOUT_MS = 60_000;

const known = (v: string | undefined) => (v && v !== "unknown" ? v : null);

/** Duration and streams of a source. Over HTTP this reads only the header (moov at the front). */
export async function probeMedia(ffprobe: string, input: InputSpec, options: RunOptions = {}): Promise<MediaInfo> {
  if (input.audio) {
    // DASH: the picture from the video-only stream, the sound from the audio-only one; both headers, in parallel.
    const { audio, ...video } = input;
    const [v, a] = await Promise.all([probeStream(ffprobe, video, options), probeStream(ffprobe, audio, options)]);
    if (!v.video) throw new ClipError("unreadable_source", "The video stream of this source has no picture.", 422);
    if (!a.audio) throw new ClipError("unreadable_source", "The audio stream of this source has no sound.", 422);
    return {
      ...v,
      // The clip can only run as long as both streams do.
      durationSeconds: Math.min(v.durationSeconds, a.durationSeconds),
      audio: a.audio,
    };
  }
  return probeStream(ffprobe, input, options);
}

async function probeStream(ffprobe: string, input: InputSpec, options: RunOptions): Promise<MediaInfo> {
  const light = await probeOnce(ffprobe, input, false, options);
  // A header-only probe is enough for MP4/MKV; containers without a header (e.g. MPEG-TS) need a deeper look.
  const complete = (!light.video || (light.video.pixFmt && light.video.frameRate > 0)) && (light.video || light.audio);
  return complete ? light : probeOnce(ffprobe, input, true, options);
}

async function probeOnce(ffprobe: string, input: InputSpec, deep: boolean, options: RunOptions): Promise<MediaInfo> {
  // The proxy's own refusals (a private address, no byte ranges, an HTTP error) reach the user as they are.
  const { stdout } = await withRangeProxy(input, (proxied) =>
    runProcess(
      ffprobe,
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...inputArgs(proxied, deep)],
      { signal: options.signal, timeoutMs: PROBE_TIMEOUT_MS },
    ).catch((error: unknown) => {
      if (error instanceof ClipError && error.code === "cancelled") throw error;
      throw new ClipError("unreadable_source", `Could not read the source media (${input.original}).`, 422);
    }),
  );
  const parsed = probeSchema.parse(JSON.parse(stdout));
  const v = parsed.streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  const a = parsed.streams.find((s) => s.codec_type === "audio");
  const duration = parsed.format.duration;
  if (duration === undefined || !Number.isFinite(duration)) {
    throw new ClipError("unreadable_source", "The source has no known duration (live streams are not supported).", 422);
  }
  const frameRate = rate(v?.avg_frame_rate) || rate(v?.r_frame_rate);
  return {
    durationSeconds: duration,
    formatName: parsed.format.format_name,
    bitRate:
      parsed.format.bit_rate !== undefined && Number.isFinite(parsed.format.bit_rate) ? parsed.format.bit_rate : null,
    video:
      v && v.width && v.height
        ? {
            index: v.index,
            codec: v.codec_name ?? "unknown",
            profile: v.profile ?? null,
            level: v.level !== undefined && v.level > 0 ? v.level : null,
            pixFmt: v.pix_fmt ?? null,
            width: v.width,
            height: v.height,
            frameRate: frameRate || 30,
            reorderFrames: Math.max(0, v.has_b_frames ?? 0),
            colorRange: known(v.color_range),
            colorSpace: known(v.color_space),
            colorTransfer: known(v.color_transfer),
            colorPrimaries: known(v.color_primaries),
            bitRate: v.bit_rate !== undefined && Number.isFinite(v.bit_rate) ? v.bit_rate : null,
          }
        : null,
    audio: a
      ? {
          index: a.index,
          codec: a.codec_name ?? "unknown",
          sampleRate: a.sample_rate ?? 48000,
          channels: a.channels ?? 2,
          bitRate: a.bit_rate !== undefined && Number.isFinite(a.bit_rate) ? a.bit_rate : null,
        }
      : null,
  };
}

/** A video packet in decode order; times in 90 kHz ticks (the staging file's MPEG-TS clock). */
export interface Packet {
  pts: number;
  dts: number;
  key: boolean;
}

const packetsSchema = z.object({
  packets: z
    .array(z.object({ pts_time: z.string().optional(), dts_time: z.string().optional(), flags: z.string().optional() }))
    .default([]),
});

/** All video packets of a local staging file (MPEG-TS or Matroska), in decode order, in 90 kHz ticks. */
export async function probePackets(ffprobe: string, file: string, options: RunOptions = {}): Promise<Packet[]> {
  const { stdout } = await runProcess(
    ffprobe,
    [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "packet=pts_time,dts_time,flags",
      "-print_format",
      "json",
      file,
    ],
    { signal: options.signal, timeoutMs: 5 * PROBE_TIMEOUT_MS },
  );
  const packets: Packet[] = [];
  for (const p of packetsSchema.parse(JSON.parse(stdout)).packets) {
    // Times, not raw timestamps: the staging file is MPEG-TS (90 kHz) or Matroska (1 kHz); both map to ticks.
    const pts = p.pts_time === undefined ? NaN : Number(p.pts_time);
    if (!Number.isFinite(pts)) continue;
    const dts = p.dts_time === undefined ? NaN : Number(p.dts_time);
    packets.push({
      pts: Math.round(pts * 90000),
      dts: Number.isFinite(dts) ? Math.round(dts * 90000) : Math.round(pts * 90000),
      key: (p.flags ?? "").includes("K"),
    });
  }
  return packets;
}
