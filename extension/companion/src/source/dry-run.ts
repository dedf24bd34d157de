// Long because: the true-cut report reads packet windows, takes the frames from the cut's own reading of the index,
// and adds the Shorts facts (caption tracks, libass, encode time) from one probe of the source.
import { tmpdir } from "node:os";
import { decideQuality } from "../../../../app/domain/clip-quality";
import { isAudioFormat, qualityHeight } from "../../../../app/domain/media";
import type { DryRunReport } from "../../../../app/domain/true-cut";
import { ClipError } from "../errors";
import { planFrames, readFromSeconds, smartReencoded, toSeconds, toTicks, type CutFrames } from "../paths/keyframes";
import type { MediaInfo } from "./probe";
import { readPacketWindows, type SizedPacket } from "./packet-windows";
import { cutFrames, type CutReading } from "../paths/cut-frames";
import type { CutRequest } from "../paths/request";
import type { InputSpec } from "./source";
import { SourceCache } from "./source-cache";
import { chooseStrategy } from "../paths/strategy";
import { frameThumbnails } from "./thumbnails";
import { estimateEncodeSeconds, hasLibass, measureEncodeSpeed } from "../shorts";
import { cropForSource, type ShortsAsk } from "../shorts/options";
import type { SpeedProbe } from "../shorts/speed";
import { shortsReason } from "../paths/staged/shorts";
import { remuxReason } from "../paths/staged/remux";
import { captionTracks, chooseCaptionFile } from "./captions";
import type { Tools } from "../host/tools";

/**
 * The dry run behind the panel's true-cut report: resolve and probe the format the cut would download, read the
 * packet list around the range (never the whole range: the window after the start reaches the next keyframe, the
 * one before the end holds the last GOP), and run the cut's own frame plan and strategy choice on it. Where an
 * in-process path would cut the source, the frames (first and last, keyframes, count) are that path's reading of the
 * container's index (the cut's own, paths/cut-frames.ts), not ffprobe's: the two can differ (a fragmented MP4 without
 * an edit list, whose fragments ffprobe seeks by decode time); ffprobe's packets still give the sizes. Nothing is
 * reserved, staged or kept.
 */

/** Packets read after the start: enough to find the next keyframe of any usual GOP (YouTube: 2–5 s). */
export const HEAD_WINDOW_SECONDS = 10;
/** Read past the end: B-frame reordering and the closed prefix of the last GOP. */
const TAIL_MARGIN_SECONDS = 1;

/**
 * Estimates are ranges: the read speed and the encoder's speed are this machine's and this network's.
 * Read: 1–20 MB/s over the network (a local file reads in no time). Encode: the smart cut's head runs at
 * 60–300 frames/s at 1080p and below (bench/companion-cut.ts), a full re-encode at 30–150.
 */
const READ_BYTES_PER_SECOND = { low: 1e6, high: 20e6 };
const HEAD_FPS = { low: 60, high: 300 };
const FULL_FPS = { low: 30, high: 150 };
/** The size of copied and re-encoded video as the source's bytes, give or take. */
const SIZE_SPREAD = { low: 0.9, high: 1.15 };
/**
 * A frame the smart cut re-encodes costs about 2.2 average source frames (the encoder restarts its GOP with a
 * keyframe and has no references from before the cut); measured on the x264 fixtures of the companion's tests.
 */
const ENCODED_FRAME_EXTRA = 1.2;

export interface DryRunInput {
  source: string;
  startSeconds: number;
  endSeconds: number;
  format: CutRequest["format"];
  quality: NonNullable<CutRequest["quality"]>;
  watermark: boolean;
  thumbnails: boolean;
  /** A crop or captions: the Shorts path re-encodes the picture. */
  aspect?: ShortsAsk["aspect"];
  crop?: ShortsAsk["crop"];
  cropPosition?: ShortsAsk["cropPosition"];
  captions?: ShortsAsk["captions"];
}

export interface DryRunOptions {
  tools: Tools;
  allowPrivateSources: boolean;
  ytDlpWarning?: string | null;
  signal?: AbortSignal;
  /** The companion's resolved sources, shared with its job queue (source-cache.ts). */
  sources?: SourceCache;
}

/**
 * The report for one range of a probed source, from its packets, or from the cut's own reading of its frames (`own`:
 * an in-process copy) with the packets' sizes (exported for tests: no network, no yt-dlp).
 */
export function reportFromPackets(
  req: DryRunInput,
  info: MediaInfo,
  packets: readonly SizedPacket[],
  read: { remote: boolean; complete: boolean },
  own: CutReading | null = null,
): Omit<DryRunReport, "thumbnails"> & { plan: CutFrames } {
  const video = info.video;
  if (!video) throw new ClipError("invalid_format", "The source has no video.", 422);
  const end = Math.min(req.endSeconds, info.durationSeconds);
  const plan = own?.frames ?? planFrames(packets, toTicks(req.startSeconds), toTicks(end));
  const cut = { info, ...cutTerms(req, info) } as CutRequest;
  const { crop, captions } = cut;
  const shorts = crop !== null || captions !== null;
  const chosen = own ? { kind: "copy" as const, reason: own.reason } : chooseStrategy(cut, plan, packets);
  // A captions track goes beside a copy (staged remux); what is re-encoded for the Shorts says why in its words.
  const choice =
    chosen.kind === "copy" && captions
      ? { ...chosen, reason: remuxReason(chosen.reason) }
      : shorts
        ? { ...chosen, reason: shortsReason(cut) }
        : chosen;
  const fps = video.frameRate;
  const frameOf = (ticks: number) => Math.round(toSeconds(ticks) * fps);
  const lastPts = plan.endPts - plan.frameTicks;
  // Two windows of ffprobe's leave a gap in the middle of a long clip: its frames are counted on the grid.
  const frameCount =
    own || read.complete ? plan.frameCount : Math.round((plan.endPts - plan.startPts) / plan.frameTicks);
  const inClip = (p: SizedPacket) => p.pts >= plan.startPts && p.pts <= lastPts;
  const keys = packets
    .filter((p) => p.key)
    .map((p) => p.pts)
    .sort((a, b) => a - b);
  const keyAfter = keys.find((k) => k > plan.startPts) ?? plan.keyAfterStart;

  let headFrames = 0;
  let tailFrames = 0;
  if (choice.kind === "reencode") headFrames = frameCount;
  else if (choice.kind === "smart") {
    // The smart paths' own rule, on frames counted (a gap over the frame length is off on a variable rate or a
    // millisecond clock).
    const reencoded = smartReencoded(plan);
    headFrames = reencoded.whole ? frameCount : reencoded.head;
    tailFrames = reencoded.tail;
  }

  // Size: the source's bytes for the clip's frames (a gap at the source's measured rate), plus the sound.
  const known = packets.filter(inClip);
  const knownBytes = known.reduce((sum, p) => sum + p.size, 0);
  const perFrame = known.length > 0 ? knownBytes / known.length : (video.bitRate ?? 2e6) / 8 / fps;
  const seconds = frameCount / fps;
  let videoBytes = knownBytes + Math.max(0, frameCount - known.length) * perFrame;
  if (choice.kind === "smart") videoBytes += (headFrames + tailFrames) * perFrame * ENCODED_FRAME_EXTRA;
  if (choice.kind === "reencode") {
    // A new size or a watermark: the encoder's own rate, scaled by the picture area.
    const height = cut.quality ? Math.min(qualityHeight(cut.quality), video.height) : video.height;
    videoBytes *= (height / video.height) ** 2;
    // A crop keeps the box's share of the picture.
    if (crop) videoBytes *= (crop.width * crop.height) / (video.width * video.height);
  }
  const audioBytes = info.audio ? ((info.audio.bitRate ?? 128_000) / 8) * seconds : 0;
  const bytes = videoBytes + audioBytes;
  const spread = choice.kind === "reencode" ? { low: 0.5, high: 1.5 } : SIZE_SPREAD;
  const encodeFps = choice.kind === "reencode" ? FULL_FPS : HEAD_FPS;
  const encoded = headFrames + tailFrames;
  const reading = (speed: number) => (read.remote ? bytes / speed : 0);
  return {
    plan,
    fps,
    width: video.width,
    height: video.height,
    codec: video.codec,
    firstFrame: frameOf(plan.startPts),
    lastFrame: frameOf(lastPts),
    frameCount,
    strategy: choice.kind,
    reason: choice.reason,
    startOnKey: plan.startOnKey,
    headFrames,
    tailFrames,
    keyBefore: frameOf(plan.keyBefore),
    keyAfter: keyAfter === null ? null : frameOf(keyAfter),
    sizeBytes: { low: Math.round(bytes * spread.low), high: Math.round(bytes * spread.high) },
    seconds: {
      low: round2(reading(READ_BYTES_PER_SECOND.high) + encoded / encodeFps.high),
      high: round2(reading(READ_BYTES_PER_SECOND.low) + encoded / encodeFps.low + 1),
    },
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The terms the cut gets for this report's request (the panel offers only qualities the plan allows). */
function cutTerms(req: DryRunInput, info: MediaInfo) {
  const decided = decideQuality({
    format: req.format,
    asked: req.quality,
    planMax: req.quality,
    sourceHeight: info.video?.height ?? 0,
  });
  // A crop or captions send the clip to the Shorts path (its cues do not matter here).
  const captions = req.captions ? { cues: [], mode: req.captions.mode } : null;
  return {
    format: req.format,
    quality: decided.scaleTo,
    strategy: "auto" as const,
    allowSnap: false,
    watermark: req.watermark,
    crop: cropForSource(req, info),
    captions,
  };
}

/** ffprobe's windows for a clip [start, end): after the start (the next keyframe) and, past the head, at the end. */
export function packetWindows(start: number, end: number, video: MediaInfo["video"]): [number, number][] {
  const headTo = Math.min(end, start + HEAD_WINDOW_SECONDS) + TAIL_MARGIN_SECONDS;
  const windows: [number, number][] = [[readFromSeconds(start, video), headTo]];
  if (end + TAIL_MARGIN_SECONDS > headTo) windows.push([end, end + TAIL_MARGIN_SECONDS]);
  return windows;
}

/** Each tools set's own cache, for callers that do not share theirs with a job queue (tests, the CLI). */
const ownCaches = new WeakMap<Tools, SourceCache>();

/**
 * The resolved source and ffprobe's description of it (the report's frame rate and bit rates are ffprobe's), from
 * the companion's shared cache: the job that follows the report reuses both (a report is asked again at every
 * handle move, and the clip right after).
 */
async function probed(req: DryRunInput, options: DryRunOptions) {
  let sources = options.sources ?? ownCaches.get(options.tools);
  if (!sources) ownCaches.set(options.tools, (sources = new SourceCache(options.tools)));
  const ask = {
    source: req.source,
    height: qualityHeight(req.quality),
    allowPrivate: options.allowPrivateSources,
    ytDlpWarning: options.ytDlpWarning ?? null,
  };
  sources.warmHeader(ask);
  const [input, info] = await Promise.all([sources.resolve(ask), sources.fullProbe(ask)]);
  return { input, info };
}

/** The dry run: the plan the cut would follow for this range, with thumbnails of its first and last frames. */
export async function dryRun(req: DryRunInput, options: DryRunOptions): Promise<DryRunReport> {
  if (isAudioFormat(req.format))
    throw new ClipError("invalid_format", "A sound-only clip has no frames to report; choose a video format.", 422);
  const { input, info } = await probed(req, options);
  if (!info.video) throw new ClipError("invalid_format", "The source has no video.", 422);
  if (req.startSeconds >= info.durationSeconds)
    throw new ClipError("invalid_range", "The start is past the end of the video.", 422);
  const end = Math.min(req.endSeconds, info.durationSeconds);
  const windows = packetWindows(req.startSeconds, end, info.video);
  const videoOnly: InputSpec = { ...input, audio: undefined };
  // The cut's own planning, in a folder it may write (a byte copy writes the clip while it reads; nothing is kept).
  const cut = { ...cutTerms(req, info), input, info, startSeconds: req.startSeconds, endSeconds: end };
  const [packets, own] = await Promise.all([
    readPacketWindows(options.tools.ffprobe, videoOnly, windows, options.signal),
    cutFrames({ ...cut, outputDir: tmpdir(), baseName: "" }, HEAD_WINDOW_SECONDS, options.signal),
  ]);
  if (packets.length === 0) throw new ClipError("unreadable_source", "No video frames were found in that range.", 422);
  const read = { remote: input.kind === "http", complete: windows.length === 1 };
  const { plan, ...found } = reportFromPackets(req, info, packets, read, own);
  const report = { ...found, ...(await shortsFacts(req, input, info, found.frameCount, options)) };
  const thumbnails = req.thumbnails
    ? await frameThumbnails(
        options.tools.ffmpeg,
        videoOnly,
        [
          { pts: toSeconds(plan.startPts), seekFrom: decodedFrom(plan, plan.keyBefore) },
          {
            pts: toSeconds(plan.endPts - plan.frameTicks),
            seekFrom: decodedFrom(plan, plan.lastKey ?? plan.keyBefore),
          },
        ],
        toSeconds(plan.frameTicks),
        options.signal,
      )
    : null;
  return { ...report, thumbnails: thumbnails ? { first: thumbnails[0]!, last: thumbnails[1]! } : null };
}

/** A frame before the decode time of the keyframe at `key`: where a thumbnail's seek starts. */
const decodedFrom = (plan: CutFrames, key: number) => toSeconds(key - plan.reorderDelayTicks - plan.frameTicks);

/**
 * This process's encode speed for a Shorts clip's settings (frames per second), measured once per picture size,
 * box, format, burn-in and watermark (shorts/speed.ts), and kept: later reports reuse it.
 */
const speeds = new Map<string, Promise<number | null>>();

function encodeSpeed(ffmpeg: string, o: Omit<SpeedProbe, "ffmpeg" | "signal">): Promise<number | null> {
  const key = JSON.stringify([
    ffmpeg,
    o.source,
    o.crop && [o.crop.width, o.crop.height],
    o.format,
    o.burn,
    o.watermark,
  ]);
  let speed = speeds.get(key);
  if (!speed) {
    speed = measureEncodeSpeed({ ffmpeg, ...o }).catch(() => null);
    speeds.set(key, speed);
    // A failed measure is tried again by the next report.
    void speed.then((fps) => fps === null && speeds.delete(key));
  }
  return speed;
}

/**
 * What the panel needs for short videos: the caption tracks to list, whether captions can be burned in, and for a
 * crop or captions how long the re-encode takes here. A track the video does not have is a 400, as for the clip.
 */
async function shortsFacts(
  req: DryRunInput,
  input: InputSpec,
  info: MediaInfo,
  frameCount: number,
  options: DryRunOptions,
): Promise<Pick<DryRunReport, "captionTracks" | "libass" | "encodeSeconds">> {
  const libass = await hasLibass(options.tools.ffmpeg);
  const facts = { captionTracks: captionTracks(input.captions), libass };
  const crop = cropForSource(req, info);
  if (!info.video || (!crop && !req.captions)) return facts;
  if (req.captions) chooseCaptionFile(input.captions, req.captions.track);
  const burn = req.captions?.mode === "burn" && libass;
  const source = { width: info.video.width, height: info.video.height };
  const speed = await encodeSpeed(options.tools.ffmpeg, {
    source,
    crop,
    format: req.format,
    burn,
    watermark: req.watermark,
  });
  return { ...facts, encodeSeconds: estimateEncodeSeconds(frameCount, speed) };
}
