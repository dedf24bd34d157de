import { basename, dirname, extname, join } from "node:path";
import { captionLayout, clipCues, phoneCues, toAss, toSrt, toVtt, type Cue } from "../../../../app/domain/captions";
import { outputSize, type CropBox, type FrameSize } from "../../../../app/domain/crop";
import { toFrames, type FrameRange } from "../../../../app/domain/frames";
import { isAudioFormat, type Format, type Quality } from "../../../../app/domain/media";
import { ClipError } from "../errors";
import type { ShortsCaptions } from "../paths/request";
import { audioCodecArgs, canCopyAudio, containerArgs, videoCodecArgs, watermarkFilter } from "../paths/encode";
import { keepPackets } from "../paths/staged/copy";

/**
 * A clip for Shorts, Reels and TikTok in one ffmpeg run: the exact frames of the range, cropped to the box (and
 * scaled), captions burned in or muxed as a track of their own, the Free plan's mark inside the box, and the sound
 * copied when the container takes it. The picture is always re-encoded (a crop or burned-in text changes every
 * pixel); the frame rule is the cut's (app/domain/frames.ts): the first frame is the one shown at the start, the
 * clip holds every frame before the end.
 */

/** Where soft captions go: the track each container takes. AVI and GIF have none. */
const SOFT_CODEC: Partial<Record<Format, string>> = {
  mp4: "mov_text",
  mov: "mov_text",
  mkv: "webvtt",
  webm: "webvtt",
};

export const canCarrySoftCaptions = (format: Format) => SOFT_CODEC[format] !== undefined;

// The captions a cut request carries live with the request (paths/request.ts): the paths share its types, and a
// request that imported the command would tie the paths to it in a cycle.
export type { ShortsCaptions } from "../paths/request";

export interface ShortsJob {
  /** ffmpeg's options for the picture's source, ending with `-i <url>` (source.ts's inputArgs). */
  videoInput: readonly string[];
  /** The sound: the same source again (one file) or its audio-only stream (YouTube's DASH); null for none. */
  audioInput: readonly string[] | null;
  /** That input's audio codec (from the probe): copied when the output container takes it. */
  audioCodec: string | null;
  /**
   * A copy's packets by their place in the audio input (0-based, from a listing of it: the stage's), kept instead of
   * seeking: a seek in MPEG-TS lands on a PES packet that may start before the first frame.
   */
  audioPackets?: { from: number; to: number } | null;
  /** The range as the companion's request has it (the panel sends the middles of the first and last frames). */
  startSeconds: number;
  endSeconds: number;
  fps: number;
  /** The source's time of frame 0: 0 for a file as it comes, the offset of a staging copy's clock. */
  originSeconds?: number;
  /**
   * Where the picture's input is sought: a time at which the demuxer lands on a keyframe at or before the first
   * frame (the plan's keyframe); without it, a second before the first frame.
   */
  seekSeconds?: number;
  /** The source's frame, in pixels. */
  source: FrameSize;
  /** The box in source pixels (crop.ts's rule); null keeps the whole frame. */
  crop: CropBox | null;
  /** The picture's short side after the crop (crop.ts's outputSize); null keeps the box's size. */
  scaleTo: Quality | null;
  captions: ShortsCaptions | null;
  watermark: boolean;
  format: Format;
  /** The clip's path. */
  output: string;
  /** A folder of the job's own for the files the run reads (the ASS document, the soft track). */
  workDir: string;
}

export interface FileToWrite {
  path: string;
  text: string;
}

export interface ShortsCommand {
  /** ffmpeg's arguments after runFfmpeg's own (-hide_banner … -y). */
  args: string[];
  /** Written before the run: ffmpeg reads them. */
  files: FileToWrite[];
  /** The .srt beside the clip, written after a successful run (when asked for). */
  sidecar: FileToWrite | null;
  /** The source frames the clip holds, and how long it plays (progress: runFfmpeg's out time over this). */
  frames: FrameRange;
  frameCount: number;
  mediaSeconds: number;
  /** The written picture's size. */
  picture: FrameSize;
  /** The captions on the clip's clock, laid out as written (empty without captions). */
  cues: Cue[];
  audio: "copy" | "encode" | "none";
}

/**
 * The captions a clip holds, on its clock (0: its first frame, `frames` on the source's grid): the cues that overlap
 * the clip, a cue that starts before the first frame starting at 0, laid out for the picture (at most two lines).
 */
export function cuesOnClip(captions: ShortsCaptions, frames: FrameRange, fps: number, picture: FrameSize): Cue[] {
  return phoneCues(clipCues(captions.cues, frames, fps), captionLayout(picture).maxChars, fps);
}

/** The subtitle file a container's track is made from (SRT for mov_text, WebVTT for WebVTT), in the work folder. */
export function softTrack(cues: readonly Cue[], format: Format, workDir: string): FileToWrite {
  const vtt = SOFT_CODEC[format] === "webvtt";
  return { path: join(workDir, vtt ? "captions.vtt" : "captions.srt"), text: vtt ? toVtt(cues) : toSrt(cues) };
}

/** The track's codec in a container that carries one. */
export const softCodec = (format: Format) => SOFT_CODEC[format] ?? "mov_text";

/** The .srt beside the clip, under the clip's name. */
export function sidecarOf(cues: readonly Cue[], output: string): FileToWrite {
  const base = basename(output, extname(output));
  return { path: join(dirname(output), `${base}.srt`), text: toSrt(cues) };
}

/**
 * A path as a filter option's value: inside single quotes, with ffmpeg's filter-graph escaping for the characters
 * that still mean something there (Windows drive colons, quotes).
 */
function filterPath(path: string): string {
  return `'${path.replace(/\\/g, "/").replace(/:/g, "\\\\:").replace(/'/g, "\\\\'")}'`;
}

/** Seconds for an ffmpeg option, to the microsecond (its own resolution). */
const t = (seconds: number) => seconds.toFixed(6);

/** Splits `…options -i url` so seek options can go before the `-i`. */
function withInputOptions(input: readonly string[], options: string[]): string[] {
  const at = input.lastIndexOf("-i");
  if (at < 0 || at !== input.length - 2) throw new Error("An input's arguments must end with -i <url>.");
  return [...input.slice(0, at), ...options, ...input.slice(at)];
}

/** How much before the first frame the demuxer is asked to seek: it lands on a keyframe at or before that. */
const SEEK_MARGIN_SECONDS = 1;

/**
 * The copy paths' rule for the sound (keyframes.ts: from the first packet at or after the first frame, while a
 * packet's middle is before the end) without a listing of its packets: the bitstream filter sees each packet on the
 * clip's clock (0: the first frame) and drops the others. A tenth of a millisecond of slack absorbs the rounding of
 * the shift into the sound's time base.
 */
const soundWithin = (seconds: number) => `noise=drop=lt(pts*tb\\,-0.0001)+gte(pts*tb+duration*tb/2\\,${t(seconds)})`;

export function shortsCommand(job: ShortsJob): ShortsCommand {
  const { format, fps } = job;
  if (isAudioFormat(format) || format === "gif") {
    throw new ClipError(
      "invalid_format",
      "A cropped or captioned clip is a video: choose MP4, WebM, MKV, MOV or AVI.",
      400,
    );
  }
  if (!(fps > 0)) throw new ClipError("bad_request", "The source's frame rate is unknown.", 400);
  const captions = job.captions && job.captions.cues.length > 0 ? job.captions : null;
  if (job.captions?.mode === "soft" && !canCarrySoftCaptions(format)) {
    throw new ClipError(
      "invalid_format",
      `A ${format.toUpperCase()} file cannot hold a caption track: burn them in.`,
      400,
    );
  }
  const origin = job.originSeconds ?? 0;
  const frames = toFrames({ start: job.startSeconds, end: job.endSeconds }, fps);
  const frameCount = frames.last - frames.first + 1;
  const mediaSeconds = frameCount / fps;
  // The source's own times of the first frame and of the clip's end.
  const firstTime = origin + frames.first / fps;
  const box = job.crop ?? { x: 0, y: 0, width: job.source.width, height: job.source.height };
  const picture = outputSize(box, job.scaleTo);

  const files: FileToWrite[] = [];
  const filters: string[] = [
    // A quarter frame before the first frame and half a frame before the one after the last: exactly those
    // frames, whatever rounding their timestamps carry (the staged re-encode's trim).
    `trim=start=${t(origin + (frames.first - 0.25) / fps)}:end=${t(origin + (frames.last + 0.5) / fps)}`,
    "setpts=PTS-STARTPTS",
  ];
  if (job.crop) filters.push(`crop=${box.width}:${box.height}:${box.x}:${box.y}:exact=1`);
  if (picture.width !== box.width || picture.height !== box.height) {
    filters.push(`scale=${picture.width}:${picture.height}:flags=bicubic`);
  }

  let cues: Cue[] = [];
  let soft: FileToWrite | null = null;
  let sidecar: FileToWrite | null = null;
  if (captions) {
    cues = cuesOnClip(captions, frames, fps, picture);
    if (captions.mode === "burn") {
      const ass = { path: join(job.workDir, "captions.ass"), text: toAss(cues, picture, fps, captions.style) };
      files.push(ass);
      // After the crop and the scale: the text is laid out in the picture the clip holds, on the clip's clock.
      filters.push(`ass=filename=${filterPath(ass.path)}`);
    } else {
      const track = softTrack(cues, format, job.workDir);
      files.push(track);
      soft = track;
    }
    if (captions.srt) sidecar = sidecarOf(cues, job.output);
  }
  // Drawn last, in the picture the clip holds: the mark stays inside the crop, sized by its short side.
  if (job.watermark) filters.push(watermarkFilter(Math.min(picture.width, picture.height)));

  const args: string[] = [
    "-copyts",
    ...withInputOptions(job.videoInput, [
      "-noaccurate_seek",
      "-ss",
      t(Math.max(0, job.seekSeconds ?? firstTime - SEEK_MARGIN_SECONDS)),
    ]),
  ];
  let audio: ShortsCommand["audio"] = "none";
  const maps = ["-map", "[v]"];
  const codecs = [...videoCodecArgs(format), "-fps_mode", "passthrough"];
  let input = 1;
  if (job.audioInput) {
    // The sound on the clip's clock: shifted so the first frame's time is 0, read from there. A copy keeps the
    // packets from the first at or after the first frame (ffmpeg drops those before the input's start) while their
    // middle is before the clip's end (the copy paths' rule: keyframes.ts); an encode is trimmed to the sample.
    const copy = job.audioCodec !== null && canCopyAudio(format, job.audioCodec);
    const picked = copy ? (job.audioPackets ?? null) : null;
    const seek = picked ? [] : ["-ss", t(firstTime)];
    args.push(...withInputOptions(job.audioInput, ["-itsoffset", t(-firstTime), ...seek]));
    const a = input++;
    maps.push("-map", `${a}:a:0`);
    if (copy) {
      audio = "copy";
      codecs.push("-c:a", "copy", "-bsf:a", picked ? keepPackets(picked.from, picked.to) : soundWithin(mediaSeconds));
    } else {
      audio = "encode";
      codecs.push("-af", `atrim=start=0:end=${t(mediaSeconds)},asetpts=PTS-STARTPTS`, ...audioCodecArgs(format));
    }
  }
  if (soft) {
    args.push("-i", soft.path);
    const s = input++;
    maps.push("-map", `${s}:s:0`);
    codecs.push("-c:s", softCodec(format));
  }
  args.push(
    "-filter_complex",
    `[0:v:0]${filters.join(",")}[v]`,
    ...maps,
    ...codecs,
    "-map_metadata",
    "-1",
    "-map_chapters",
    "-1",
    "-t",
    t(mediaSeconds),
    ...containerArgs(format),
    job.output,
  );
  return { args, files, sidecar, frames, frameCount, mediaSeconds, picture, cues, audio };
}

/** How far a run is (0–1) from runFfmpeg's progress: the output's time over the clip's length. */
export function shortsFraction(outTimeSeconds: number | null, mediaSeconds: number): number {
  if (outTimeSeconds === null || !(mediaSeconds > 0)) return 0;
  return Math.min(1, Math.max(0, outTimeSeconds / mediaSeconds));
}
