import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { AppliedStrategy, CutResult, CutStrategy, Progress } from "../../../app/domain/companion";
import { isAudioFormat, qualityHeight, type Format, type Quality } from "../../../app/domain/media";
import {
  audioCodecArgs,
  canCopyAudio,
  canCopyVideo,
  containerArgs,
  EXTENSIONS,
  matchingH264Args,
  matchingVp9Args,
  targetHeight,
  videoCodecArgs,
  watermarkFilter,
} from "./encode";
import { ClipError } from "./errors";
import { runFfmpeg, type FfmpegProgress } from "./ffmpeg";
import { copyEnd, planFrames, toSeconds, toTicks, type CutFrames } from "./keyframes";
import { reserveOutput, type OutputSlot } from "./output";
import { listingArgs, readListing, type StagedPackets } from "./listing";
import type { MediaInfo } from "./probe";
import { withRangeProxy } from "./range-proxy";
import { inputArgs, type InputSpec } from "./source";
import type { Tools } from "./tools";
import { checkCopiedOutput, verifyOutput, type CopiedPackets } from "./verify";
import { startTrace, type Trace } from "./trace";

/**
 * The staging copy's timestamps are the source's plus this offset, so that decode timestamps before the first
 * frame (B-frame delay) stay positive in MPEG-TS. All intermediate work happens on that absolute clock.
 */
const STAGE_OFFSET = toTicks(100);
/** Extra source read after the end: B-frame reordering and the tail GOP need a few frames past it. */
const STAGE_MARGIN_SECONDS = 1;

export interface CutRequest {
  input: InputSpec;
  info: MediaInfo;
  startSeconds: number;
  endSeconds: number;
  format: Format;
  /** Null keeps the source's size (and 480p for GIF). */
  quality: Quality | null;
  strategy: CutStrategy;
  allowSnap: boolean;
  watermark: boolean;
  outputDir: string;
  /** File name without extension; defaults to "<title> <start>-<end>". */
  baseName: string;
  /** The quality the user asked for, before it was capped at the source (for the "not that tall" note). */
  requestedQuality?: Quality | null;
}

export interface CutHooks {
  tools: Tools;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Timing spans (CLIPCUT_TRACE=1). */
  trace?: Trace;
  /**
   * Must resolve before anything is written to the output folder (the credit reservation): the source is read into
   * the private work folder while it is pending, and a rejection ends the cut there.
   */
  gate?: Promise<unknown>;
}

interface Step {
  args: string[];
  /** A small file the step reads (the concat list), written just before it runs. */
  writeFirst?: { path: string; text: string };
  /** Seconds of media this step writes, and the output timestamp it starts from, for progress. */
  mediaSeconds: number;
  origin: number;
  weight: number;
}

const sec = (ticks: number) => toSeconds(ticks).toFixed(6);

/**
 * Every ffmpeg run is bounded: a generous floor plus a slow worst case (a 4K software encode at 0.05× realtime,
 * a slow network at a tenth of realtime), so a stuck server or encoder ends the job with an error, not a hang.
 */
function stepTimeoutMs(mediaSeconds: number, network: boolean): number {
  return Math.round((120 + mediaSeconds * (network ? 10 : 20)) * 1000);
}

/** What the output needs, known before any media is read. */
export function reencodeReasons(req: Pick<CutRequest, "info" | "format" | "quality" | "watermark">): string[] {
  const reasons: string[] = [];
  const video = req.info.video;
  if (isAudioFormat(req.format)) return ["audio output"];
  if (!video) return reasons;
  if (req.format === "gif") reasons.push("GIF output");
  else if (!canCopyVideo(req.format, video.codec)) reasons.push(`${video.codec} cannot be copied into ${req.format}`);
  if (req.watermark) reasons.push("watermark");
  if (req.quality && qualityHeight(req.quality) < video.height) reasons.push(`scaling to ${req.quality}`);
  return reasons;
}

/** Throws the user-facing reason when the request cannot be cut as asked. */
export function validateCut(req: CutRequest): void {
  const { info } = req;
  if (req.startSeconds >= info.durationSeconds) {
    throw new ClipError(
      "invalid_range",
      `Start (${req.startSeconds}s) is past the end of the source (${info.durationSeconds.toFixed(2)}s).`,
      422,
    );
  }
  if (!isAudioFormat(req.format) && !info.video) {
    throw new ClipError("invalid_format", `The source has no video; choose MP3 or WAV instead of ${req.format}.`, 422);
  }
  if (isAudioFormat(req.format) && !info.audio) {
    throw new ClipError("invalid_format", "The source has no audio track.", 422);
  }
  const reasons = reencodeReasons(req);
  if ((req.strategy === "copy" || req.strategy === "smart") && reasons.length > 0) {
    throw new ClipError(
      "strategy_unavailable",
      `The ${req.strategy} strategy cannot be used here (${reasons.join(", ")}); use reencode or auto.`,
      422,
    );
  }
  if (req.strategy === "smart" && info.video && !SMART_CODECS.has(info.video.codec)) {
    throw new ClipError(
      "strategy_unavailable",
      `Smart cut supports H.264 and VP9 sources; this one is ${info.video.codec}. Use copy, reencode or auto (auto re-encodes it).`,
      422,
    );
  }
}

/** Cuts one clip. Writes only the final file into the output folder, and only when it is complete. */
export async function cutClip(req: CutRequest, hooks: CutHooks): Promise<CutResult> {
  validateCut(req);
  const began = Date.now();
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const work = await mkdtemp(join(tmpdir(), "clipcut-"));
  let slot: OutputSlot | null = null;
  const progress = new ProgressTracker(hooks.onProgress);
  const ownTrace = hooks.trace ? null : startTrace("cut");
  const trace = hooks.trace ?? ownTrace!;
  try {
    const audioOnlyOut = isAudioFormat(req.format);
    // MPEG-TS carries H.264/HEVC with in-band parameter sets (the smart cut joins TS parts byte by byte), but
    // FFmpeg 5.1's TS muxer turns VP9 and AV1 into data streams, so those are staged in Matroska.
    const stageFormat = stagingFormat(req);
    const stage = join(work, stageFormat === "mpegts" ? "stage.ts" : "stage.mkv");
    const listing = join(work, "stage.crc");
    const remote = req.input.kind === "http";
    // The read is most of a copy or smart cut but a small part of a full re-encode: weight it so the ETA,
    // computed from the share done so far, is realistic from the start.
    const stageShare = expectsFullEncode(req) ? (remote ? 0.12 : 0.04) : remote ? 0.45 : 0.15;
    progress.plan(stageShare);
    // One read of the source: from the keyframe before start to just past the end, stream-copied. A DASH source
    // is two reads (video-only and audio-only, each through its own bounded-range proxy) joined on one clock.
    const readLength = (end - req.startSeconds + STAGE_MARGIN_SECONDS).toFixed(6);
    const seek = (input: InputSpec) => ["-ss", req.startSeconds.toFixed(6), "-t", readLength, ...inputArgs(input)];
    await trace.span("stage", () =>
      withRangeProxy(req.input, (input) => {
        const wantVideo = !audioOnlyOut && req.info.video !== null;
        const wantAudio = req.info.audio !== null;
        let inputs: string[];
        let maps: string[];
        if (input.audio) {
          const { audio, ...video } = input;
          inputs = [...(wantVideo ? seek(video) : []), ...(wantAudio ? seek(audio) : [])];
          maps = [...(wantVideo ? ["-map", "0:v:0"] : []), ...(wantAudio ? ["-map", `${wantVideo ? 1 : 0}:a:0`] : [])];
        } else {
          inputs = seek(input);
          maps = [...(wantVideo ? ["-map", "0:v:0"] : []), ...(wantAudio ? ["-map", "0:a:0"] : [])];
        }
        return runFfmpeg(
          hooks.tools.ffmpeg,
          [
            "-copyts",
            ...inputs,
            ...maps,
            "-c",
            "copy",
            "-muxdelay",
            "0",
            "-output_ts_offset",
            sec(STAGE_OFFSET),
            "-f",
            stageFormat,
            stage,
            // The same packets, listed for the plan (no second pass over the stage).
            ...listingArgs(maps, sec(STAGE_OFFSET), listing),
          ],
          {
            signal: hooks.signal,
            timeoutMs: stepTimeoutMs(end - req.startSeconds, remote),
            onProgress: progress.step(end - req.startSeconds, toSeconds(STAGE_OFFSET) + req.startSeconds),
          },
        );
      }),
    );
    progress.next();
    // Matroska keeps 1 ms timestamps: plan on what the stage holds.
    const staged = await readListing(listing, stageFormat === "matroska" ? 90 : 1);
    if (hooks.gate) await trace.span("gate", () => hooks.gate!);
    hooks.signal?.throwIfAborted();
    slot = await reserveOutput(req.outputDir, req.baseName, EXTENSIONS[req.format]);

    let plan: Plan;
    if (audioOnlyOut || !req.info.video) {
      plan = audioPlan(req, stage, slot.partPath, end);
    } else {
      const packets = staged.video;
      const frames = planFrames(packets, toTicks(req.startSeconds) + STAGE_OFFSET, toTicks(end) + STAGE_OFFSET);
      const strategy = chooseStrategy(req, frames, packets);
      plan =
        strategy.kind === "copy"
          ? copyPlan(req, stage, slot.partPath, frames, strategy.packets, strategy.endPts, staged)
          : strategy.kind === "smart"
            ? stageFormat === "mpegts"
              ? smartPlan(req, stage, work, slot.partPath, frames)
              : smartPlanMatroska(req, stage, work, slot.partPath, frames)
            : reencodePlan(req, stage, slot.partPath, frames);
      plan.reason = strategy.reason;
    }
    const total = plan.steps.reduce((sum, s) => sum + s.weight, 0) || 1;
    for (const step of plan.steps) {
      progress.plan(((1 - stageShare) * step.weight) / total);
      if (step.writeFirst) await writeFile(step.writeFirst.path, step.writeFirst.text);
      await trace.span(`step ${basename(step.args[step.args.length - 1] ?? "")}`, () =>
        runFfmpeg(hooks.tools.ffmpeg, step.args, {
          signal: hooks.signal,
          timeoutMs: stepTimeoutMs(step.mediaSeconds, false),
          onProgress: progress.step(step.mediaSeconds, step.origin),
        }),
      );
      progress.next();
    }
    const known = plan.known;
    const verified = await trace.span("verify", () =>
      known
        ? checkCopiedOutput(slot!.partPath, req.format, known, { ffmpeg: hooks.tools.ffmpeg, signal: hooks.signal })
        : verifyOutput(hooks.tools.ffprobe, slot!.partPath, {
            video: plan.expectVideo,
            audio: plan.expectAudio,
            expectedSeconds: plan.endSeconds - plan.startSeconds,
            signal: hooks.signal,
          }),
    );
    await slot.commit();
    const size = (await stat(slot.path)).size;
    hooks.onProgress?.({ percent: 100, speed: progress.lastSpeed, etaSeconds: 0 });
    ownTrace?.end(plan.strategy);
    return {
      output: slot.path,
      strategy: plan.strategy,
      format: req.format,
      requestedStartSeconds: req.startSeconds,
      requestedEndSeconds: req.endSeconds,
      startSeconds: round6(plan.startSeconds),
      endSeconds: round6(plan.startSeconds + verified.durationSeconds),
      durationSeconds: round6(verified.durationSeconds),
      snapped: plan.snapped,
      width: verified.width,
      height: verified.height,
      frames: verified.frames,
      watermark: req.watermark && !audioOnlyOut,
      sizeBytes: size,
      elapsedSeconds: round6((Date.now() - began) / 1000),
      reason: plan.reason,
      sourceHeight: req.info.video?.height ?? null,
      notes: resultNotes(req),
    };
  } catch (error) {
    await slot?.discard();
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function resultNotes(req: CutRequest): string[] {
  const notes: string[] = [];
  const asked = req.requestedQuality ?? req.quality;
  const height = req.info.video?.height;
  if (asked && height && !isAudioFormat(req.format) && qualityHeight(asked) > height) {
    notes.push(`This video is at most ${height}p, so the clip is ${height}p: ClipCut never upscales.`);
  }
  return notes;
}

interface Plan {
  strategy: AppliedStrategy;
  /** Why this strategy (reported in the result). */
  reason?: string;
  steps: Step[];
  startSeconds: number;
  endSeconds: number;
  snapped: boolean;
  expectVideo: boolean;
  expectAudio: boolean;
  /** A stream copy's packets, known from the listing: checked against the container's table (checkCopiedOutput). */
  known?: CopiedPackets;
}

type Choice =
  | { kind: "copy"; packets: number; endPts: number; reason: string }
  | { kind: "smart"; reason: string }
  | { kind: "reencode"; reason: string };

/** Codecs whose partial GOPs can be re-encoded and joined to copied GOPs without a visible or decodable seam. */
export const SMART_CODECS = new Set(["h264", "vp9"]);

/** Known before any media is read: the clip will be a full re-encode (output needs, or a codec smart cut lacks). */
function expectsFullEncode(req: CutRequest): boolean {
  if (isAudioFormat(req.format) || !req.info.video) return false;
  if (req.strategy === "reencode" || reencodeReasons(req).length > 0) return true;
  return req.strategy === "auto" && !req.allowSnap && !SMART_CODECS.has(req.info.video.codec);
}

function stagingFormat(req: CutRequest): "mpegts" | "matroska" {
  const video = req.info.video;
  if (video && !isAudioFormat(req.format)) return ["h264", "hevc"].includes(video.codec) ? "mpegts" : "matroska";
  return ["aac", "mp3", "ac3"].includes(req.info.audio?.codec ?? "") ? "mpegts" : "matroska";
}

/** auto: copy when it is exact, smart when the codec allows, re-encode otherwise. */
export function chooseStrategy(req: CutRequest, frames: CutFrames, packets: Parameters<typeof copyEnd>[0]): Choice {
  const copyAt = (reason: string) => {
    const endTick = frames.endPts;
    const end = copyEnd(packets, frames.keyBefore, endTick, frames.frameTicks);
    return { kind: "copy" as const, packets: end.packets, endPts: end.endPts, reason };
  };
  const codec = req.info.video?.codec ?? "unknown";
  if (req.strategy === "copy") return copyAt("copy asked");
  if (req.strategy === "smart") return { kind: "smart", reason: "smart asked" };
  if (req.strategy === "reencode") return { kind: "reencode", reason: "re-encode asked" };
  const needs = reencodeReasons(req);
  if (needs.length > 0) return { kind: "reencode", reason: `full re-encode: ${needs.join(", ")}` };
  if (frames.startOnKey) {
    const copy = copyAt("the clip starts on a keyframe and ends cleanly: stream copy is exact");
    if (copy.endPts === frames.endPts) return copy;
  } else if (req.allowSnap) {
    return copyAt("snapping to the keyframe before the start was allowed");
  }
  if (SMART_CODECS.has(codec)) {
    return { kind: "smart", reason: "frame-accurate: only the partial GOPs at the ends are re-encoded" };
  }
  if (req.allowSnap) return copyAt("snapping to the keyframe before the start was allowed");
  return {
    kind: "reencode",
    reason: `${codec} cannot be joined safely by smart cut in this FFmpeg (H.264 and VP9 only), so the whole clip is re-encoded`,
  };
}

function videoScaleFilters(req: CutRequest): string[] {
  const video = req.info.video;
  if (!video) return [];
  const filters: string[] = [];
  const requested = req.quality ? qualityHeight(req.quality) : req.format === "gif" ? 480 : null;
  const height = targetHeight(video.height, requested);
  if (height < video.height) filters.push(`scale=-2:${height}:flags=bicubic`);
  if (req.watermark) filters.push(watermarkFilter(height));
  return filters;
}

function audioTrim(startPts: number, endPts: number, resetToZero: boolean): string {
  return `atrim=start=${sec(startPts)}:end=${sec(endPts)}` + (resetToZero ? ",asetpts=PTS-STARTPTS" : "");
}

function audioPlan(req: CutRequest, stage: string, out: string, end: number): Plan {
  const startPts = toTicks(req.startSeconds) + STAGE_OFFSET;
  const endPts = toTicks(end) + STAGE_OFFSET;
  const duration = end - req.startSeconds;
  return {
    strategy: "reencode",
    reason: "audio output is encoded from the clip's samples",
    startSeconds: req.startSeconds,
    endSeconds: end,
    snapped: false,
    expectVideo: false,
    expectAudio: true,
    steps: [
      {
        args: [
          "-copyts",
          "-i",
          stage,
          "-map",
          "0:a:0",
          "-af",
          audioTrim(startPts, endPts, true),
          ...audioCodecArgs(req.format),
          ...containerArgs(req.format),
          out,
        ],
        mediaSeconds: duration,
        origin: 0,
        weight: 1,
      },
    ],
  };
}

/**
 * Stream copy from the keyframe at or before the start. The packets are picked by their place in the stage listing
 * (the `noise` bitstream filter's `drop` expression on the packet index), not with -frames:v, which would close the
 * whole file at the last video packet and clip the audio interleaved after it.
 *
 * Audio is copied too when the container takes the source's codec: a copy clip already starts on a keyframe rather
 * than on the asked frame, and re-encoding the sound (~0.5 s for 20 s of AAC) was most of a copy job's own work.
 * The trade-off: audio starts on the first audio packet at or after the first frame (up to one audio frame, ~21 ms,
 * after it) and ends within half an audio frame of the last frame, instead of sample-exactly; A/V sync is the
 * source's (timestamps are kept). Codecs the container cannot take are re-encoded and trimmed as before.
 */
function copyPlan(
  req: CutRequest,
  stage: string,
  out: string,
  frames: CutFrames,
  packets: number,
  endPts: number,
  staged: StagedPackets,
): Plan {
  const start = frames.keyBefore;
  const audio = req.info.audio;
  const first = staged.video.findIndex((p) => p.key && p.pts === start);
  if (first < 0) throw new ClipError("stage_failed", "The staged copy has no keyframe at the cut; try again.", 500);
  let audioArgs: string[] = [];
  let audioPackets: number | null = null;
  if (audio && canCopyAudio(req.format, audio.codec)) {
    const kept = staged.audio
      .map((p, i) => ({ ...p, i }))
      .filter((p) => p.pts >= start && p.pts + p.duration / 2 < endPts);
    const a0 = kept[0]?.i ?? 0;
    const a1 = kept[kept.length - 1]?.i ?? -1;
    audioPackets = Math.max(0, a1 - a0 + 1);
    audioArgs = ["-map", "0:a:0", "-c:a", "copy", "-bsf:a", keepPackets(a0, a1)];
  } else if (audio) {
    audioArgs = ["-map", "0:a:0", "-af", audioTrim(start, endPts, false), ...audioCodecArgs(req.format)];
  }
  const video = req.info.video;
  return {
    strategy: "copy",
    startSeconds: toSeconds(start - STAGE_OFFSET),
    endSeconds: toSeconds(endPts - STAGE_OFFSET),
    snapped: start !== frames.startPts,
    expectVideo: true,
    expectAudio: audio !== null,
    known: video
      ? {
          seconds: toSeconds(endPts - start),
          width: video.width,
          height: video.height,
          videoSizes: staged.video.slice(first, first + packets).map((p) => p.size),
          // Matroska to Matroska keeps each packet's bytes; MPEG-TS H.264 into MP4/MKV is rewritten (start codes).
          sizesExact: stagingFormat(req) === "matroska" && (req.format === "webm" || req.format === "mkv"),
          audioPackets,
        }
      : undefined,
    steps: [
      {
        args: [
          "-copyts",
          "-i",
          stage,
          "-map",
          "0:v:0",
          "-c:v",
          "copy",
          "-bsf:v",
          keepPackets(first, first + packets - 1),
          ...audioArgs,
          "-output_ts_offset",
          `-${sec(start)}`,
          ...containerArgs(req.format),
          out,
        ],
        mediaSeconds: toSeconds(endPts - start),
        origin: 0,
        weight: 1,
      },
    ],
  };
}

/**
 * A bitstream filter that passes only packets `from`..`to` (0-based, in stream order) and drops the rest.
 * x = (n-from)*(n-to) is positive exactly outside the range; the filter is given x+abs(x), which is 2x there and 0
 * inside. x alone is wrong: the noise filter reads a NEGATIVE drop value -k as "drop one packet in k at random"
 * (seeded by the bytes seen so far), so a packet inside the range was dropped whenever that running sum happened
 * to divide by k (a VP9 copy lost its packet at 5.933 s). No comma: it would split the filter list.
 */
export function keepPackets(from: number, to: number): string {
  if (to < from) return "noise=drop=1";
  const x = `(n-${from})*(n-${to})`;
  return `noise=drop=${x}+abs(${x})`;
}

function reencodePlan(req: CutRequest, stage: string, out: string, frames: CutFrames): Plan {
  const { startPts, endPts, frameTicks } = frames;
  const hasAudio = req.info.audio !== null && req.format !== "gif";
  const vTrim = `trim=start=${sec(startPts - frameTicks / 4)}:end=${sec(endPts - frameTicks / 2)},setpts=PTS-STARTPTS`;
  const scale = videoScaleFilters(req);
  let graph: string;
  let fpsArgs: string[];
  if (req.format === "gif") {
    const fps = Math.min(15, req.info.video?.frameRate ?? 15);
    graph =
      `[0:v:0]${[vTrim, `fps=${fps}`, ...scale.map((f) => f.replace("bicubic", "lanczos"))].join(",")},split[g1][g2];` +
      `[g1]palettegen=stats_mode=diff[pal];[g2][pal]paletteuse=dither=bayer:bayer_scale=3[v]`;
    fpsArgs = [];
  } else {
    graph = `[0:v:0]${[vTrim, ...scale].join(",")}[v]`;
    fpsArgs = ["-fps_mode", "passthrough"];
  }
  if (hasAudio) graph += `;[0:a:0]${audioTrim(startPts, endPts, true)}[a]`;
  return {
    strategy: "reencode",
    startSeconds: toSeconds(startPts - STAGE_OFFSET),
    endSeconds: toSeconds(endPts - STAGE_OFFSET),
    snapped: false,
    expectVideo: true,
    expectAudio: hasAudio,
    steps: [
      {
        args: [
          "-copyts",
          "-i",
          stage,
          "-filter_complex",
          graph,
          "-map",
          "[v]",
          ...(hasAudio ? ["-map", "[a]", ...audioCodecArgs(req.format)] : []),
          ...(req.format === "gif" ? ["-loop", "0"] : videoCodecArgs(req.format)),
          ...fpsArgs,
          ...containerArgs(req.format),
          out,
        ],
        mediaSeconds: toSeconds(endPts - startPts),
        origin: 0,
        weight: 4,
      },
    ],
  };
}

/**
 * Smart cut: split the staged copy at its keyframes, re-encode only the partial GOPs at the ends with matching
 * H.264 settings, keep every whole GOP bit-for-bit, and join the parts as MPEG-TS (parameter sets travel in-band,
 * so each part decodes with its own SPS/PPS). Audio is re-encoded for the whole clip in the final mux.
 */
/** What both smart plans (H.264 and VP9) report: the exact range, in the source's seconds. */
function smartResult(steps: Step[], startPts: number, endPts: number, hasAudio: boolean): Plan {
  return {
    strategy: "smart",
    startSeconds: toSeconds(startPts - STAGE_OFFSET),
    endSeconds: toSeconds(endPts - STAGE_OFFSET),
    snapped: false,
    expectVideo: true,
    expectAudio: hasAudio,
    steps,
  };
}

function smartPlan(req: CutRequest, stage: string, work: string, out: string, frames: CutFrames): Plan {
  const video = req.info.video;
  if (!video) throw new ClipError("invalid_format", "Smart cut needs a video stream.", 422);
  const { startPts, endPts, frameTicks, keyAfterStart, lastKey } = frames;
  const encode = matchingH264Args(video);
  const parts: string[] = [];
  const steps: Step[] = [];
  const ts = ["-muxdelay", "0", "-f", "mpegts"];
  // The copied GOPs decode with a B-frame delay; shifting the re-encoded part's DTS by the same delay keeps
  // decode timestamps monotonic across every join (pts stay untouched).
  const delayTicks = frames.reorderDelayTicks;
  const reencode = (input: string, filter: string, output: string, seconds: number, origin: number): Step => ({
    args: [
      "-copyts",
      "-i",
      input,
      "-map",
      "0:v:0",
      "-vf",
      filter,
      "-fps_mode",
      "passthrough",
      "-enc_time_base:v",
      "1/90000",
      ...encode,
      "-bsf:v",
      `setts=dts=DTS-${delayTicks}`,
      ...ts,
      output,
    ],
    mediaSeconds: seconds,
    origin,
    weight: 3 * seconds,
  });
  const trimStart = `trim=start=${sec(startPts - frameTicks / 4)}`;
  const trimEnd = `trim=end=${sec(endPts - frameTicks / 2)}`;

  if (keyAfterStart === null || lastKey === null) {
    // The whole clip sits inside one GOP: re-encode it all, still with the source's parameters.
    const only = join(work, "only.ts");
    steps.push(reencode(stage, `${trimStart},${trimEnd}`, only, toSeconds(endPts - startPts), toSeconds(startPts)));
    parts.push(only);
  } else {
    const cuts = [...new Set([keyAfterStart, lastKey])].map((k) => sec(k - frameTicks / 2));
    steps.push({
      args: [
        "-copyts",
        "-i",
        stage,
        "-map",
        "0:v:0",
        "-c",
        "copy",
        "-muxdelay",
        "0",
        "-f",
        "segment",
        "-segment_format",
        "mpegts",
        "-segment_times",
        cuts.join(","),
        "-reset_timestamps",
        "0",
        join(work, "gop%d.ts"),
      ],
      mediaSeconds: toSeconds(endPts - frames.keyBefore),
      origin: toSeconds(frames.keyBefore),
      weight: 0.1 * toSeconds(endPts - frames.keyBefore),
    });
    const gop = (i: number) => join(work, `gop${i}.ts`);
    const tailIndex = cuts.length;
    // Head: the partial GOP from the start frame to the next keyframe (copied as is when start is a keyframe).
    if (frames.startOnKey) parts.push(gop(0));
    else {
      const head = join(work, "head.ts");
      steps.push(reencode(gop(0), trimStart, head, toSeconds(keyAfterStart - startPts), toSeconds(startPts)));
      parts.push(head);
    }
    if (cuts.length === 2) parts.push(gop(1));
    // Tail: the last GOP up to the end frame; copied when it can stop there cleanly, re-encoded otherwise.
    const tail = join(work, "tail.ts");
    if (frames.tailCopyable) {
      steps.push({
        args: [
          "-copyts",
          "-i",
          gop(tailIndex),
          "-map",
          "0:v:0",
          "-frames:v",
          String(frames.tailFrames),
          "-c",
          "copy",
          ...ts,
          tail,
        ],
        mediaSeconds: toSeconds(endPts - lastKey),
        origin: toSeconds(lastKey),
        weight: 0.1,
      });
    } else {
      steps.push(reencode(gop(tailIndex), trimEnd, tail, toSeconds(endPts - lastKey), toSeconds(lastKey)));
    }
    parts.push(tail);
  }
  const hasAudio = req.info.audio !== null;
  steps.push({
    args: [
      "-copyts",
      "-i",
      `concat:${parts.join("|")}`,
      ...(hasAudio ? ["-i", stage] : []),
      "-map",
      "0:v:0",
      "-c:v",
      "copy",
      ...(hasAudio ? ["-map", "1:a:0", "-af", audioTrim(startPts, endPts, false), ...audioCodecArgs(req.format)] : []),
      "-output_ts_offset",
      `-${sec(startPts)}`,
      ...containerArgs(req.format),
      out,
    ],
    mediaSeconds: toSeconds(endPts - startPts),
    origin: 0,
    weight: 0.3 * toSeconds(endPts - startPts),
  });
  return smartResult(steps, startPts, endPts, hasAudio);
}

/**
 * Smart cut for VP9 (see docs/decisions/007): MPEG-TS cannot carry VP9 in FFmpeg 5.1, so the parts are Matroska and
 * are joined with the concat demuxer, each given its exact length. Every VP9 keyframe carries its full frame header
 * (no parameter sets to match beyond profile, bit depth, chroma and size), and the encoder makes no hidden alt-ref
 * frames, so copied GOPs decode after a re-encoded one without a seam. Audio is re-encoded for the clip.
 */
function smartPlanMatroska(req: CutRequest, stage: string, work: string, out: string, frames: CutFrames): Plan {
  const video = req.info.video;
  if (!video) throw new ClipError("invalid_format", "Smart cut needs a video stream.", 422);
  const { startPts, endPts, frameTicks, keyAfterStart } = frames;
  const encode = matchingVp9Args(video);
  const parts: { file: string; ticks: number; inpoint?: number; outpoint?: number }[] = [];
  const steps: Step[] = [];
  const mkv = ["-f", "matroska"];
  const reencode = (input: string, filter: string, output: string, seconds: number, origin: number): Step => ({
    args: [
      "-copyts",
      "-i",
      input,
      "-map",
      "0:v:0",
      "-vf",
      filter,
      "-fps_mode",
      "passthrough",
      ...encode,
      ...mkv,
      output,
    ],
    mediaSeconds: seconds,
    origin,
    weight: 4 * seconds,
  });
  const trimStart = `trim=start=${sec(startPts - frameTicks / 4)}`;
  const trimEnd = `trim=end=${sec(endPts - frameTicks / 2)}`;
  // Everything from the first keyframe of the clip on is copied straight out of the stage: the concat demuxer's
  // inpoint (on that keyframe) and outpoint (half a frame before the end) cut it exactly, because VP9 has no
  // reordering (decode order is display order). No segment split and no tail copy: two ffmpeg runs fewer.
  const copyFrom = frames.startOnKey ? startPts : keyAfterStart;
  if (copyFrom === null) {
    // The whole clip sits inside one GOP after its keyframe: re-encode it all.
    const only = join(work, "only.mkv");
    steps.push(reencode(stage, `${trimStart},${trimEnd}`, only, toSeconds(endPts - startPts), toSeconds(startPts)));
    parts.push({ file: only, ticks: endPts - startPts });
  } else {
    if (!frames.startOnKey) {
      const head = join(work, "head.mkv");
      // trim's end stops the run at the keyframe (ffmpeg ends when the filter does), so the rest is not decoded.
      const headTrim = `${trimStart}:end=${sec(copyFrom - frameTicks / 2)}`;
      steps.push(reencode(stage, headTrim, head, toSeconds(copyFrom - startPts), toSeconds(startPts)));
      parts.push({ file: head, ticks: copyFrom - startPts });
    }
    parts.push({
      file: stage,
      ticks: endPts - copyFrom,
      inpoint: copyFrom,
      outpoint: endPts - frameTicks / 2,
    });
  }
  const list = join(work, "parts.txt");
  const listing = parts
    .map(
      (p) =>
        `file '${p.file.replace(/'/g, "'\\''")}'\nduration ${sec(p.ticks)}\n` +
        (p.inpoint === undefined ? "" : `inpoint ${sec(p.inpoint)}\n`) +
        (p.outpoint === undefined ? "" : `outpoint ${sec(p.outpoint)}\n`),
    )
    .join("");
  const hasAudio = req.info.audio !== null;
  steps.push({
    writeFirst: { path: list, text: listing },
    args: [
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      ...(hasAudio ? ["-copyts", "-i", stage] : []),
      "-map",
      "0:v:0",
      "-c:v",
      "copy",
      ...(hasAudio ? ["-map", "1:a:0", "-af", audioTrim(startPts, endPts, true), ...audioCodecArgs(req.format)] : []),
      ...containerArgs(req.format),
      out,
    ],
    mediaSeconds: toSeconds(endPts - startPts),
    origin: 0,
    weight: 0.3 * toSeconds(endPts - startPts),
  });
  return smartResult(steps, startPts, endPts, hasAudio);
}

/** Maps ffmpeg's per-step reports onto one 0–100 % with speed and ETA. */
class ProgressTracker {
  private done = 0;
  private share = 0;
  private readonly began = Date.now();
  lastSpeed: number | null = null;
  private lastEmit = 0;
  constructor(private readonly emit?: (p: Progress) => void) {}
  /** The next step's share of the whole job (0–1). */
  plan(share: number) {
    this.share = share;
  }
  next() {
    this.done = Math.min(1, this.done + this.share);
    this.share = 0;
    this.report(this.done, true);
  }
  step(mediaSeconds: number, origin: number) {
    return (p: FfmpegProgress) => {
      if (p.speed !== null) this.lastSpeed = p.speed;
      if (p.outTimeSeconds === null || mediaSeconds <= 0) return;
      const fraction = Math.min(1, Math.max(0, (p.outTimeSeconds - origin) / mediaSeconds));
      this.report(this.done + this.share * fraction, false);
    };
  }
  private report(fraction: number, force: boolean) {
    const now = Date.now();
    if (!this.emit || (!force && now - this.lastEmit < 200)) return;
    this.lastEmit = now;
    const elapsed = (now - this.began) / 1000;
    const percent = Math.min(99.9, Math.max(0, fraction * 100));
    const eta = fraction > 0.02 ? (elapsed * (1 - fraction)) / fraction : null;
    this.emit({
      percent: Math.round(percent * 10) / 10,
      speed: this.lastSpeed,
      etaSeconds: eta === null ? null : Math.round(eta * 10) / 10,
    });
  }
}
