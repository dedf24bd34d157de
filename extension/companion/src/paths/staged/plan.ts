import { join } from "node:path";
import type { AppliedStrategy } from "../../../../../app/domain/companion";
import { qualityHeight } from "../../../../../app/domain/media";
import { audioCodecArgs, targetHeight, watermarkFilter } from "../encode";
import { toSeconds, toTicks } from "../keyframes";
import type { CutRequest } from "../request";
import type { CopiedPackets } from "../../check/verify";

/**
 * The staging copy's timestamps are the source's plus this offset, so that decode timestamps before the first
 * frame (B-frame delay) stay positive in MPEG-TS. All intermediate work happens on that absolute clock.
 */
export const STAGE_OFFSET = toTicks(100);
/** Extra source read after the end: B-frame reordering and the tail GOP need a few frames past it. */
export const STAGE_MARGIN_SECONDS = 1;

export interface Step {
  args: string[];
  /** Small files the step reads (the concat list, a captions file), written just before it runs. */
  writeFirst?: { path: string; text: string } | readonly { path: string; text: string }[];
  /** Seconds of media this step writes, and the output timestamp it starts from, for progress. */
  mediaSeconds: number;
  origin: number;
  weight: number;
  /**
   * Runs at the same time as the step before it (the smart cut's head, tail and audio encodes are independent and
   * each leaves a core idle part of the time); the next step that is not concurrent waits for all of them.
   */
  concurrent?: boolean;
}

export const sec = (ticks: number) => toSeconds(ticks).toFixed(6);

export interface Plan {
  strategy: AppliedStrategy;
  /** Why this strategy (reported in the result). */
  reason?: string;
  steps: Step[];
  startSeconds: number;
  endSeconds: number;
  snapped: boolean;
  expectVideo: boolean;
  expectAudio: boolean;
  /**
   * The packets the plan writes, known without reading the output back (from the stage listing and the frames the
   * plan encodes): checked against the container's own table (checkCopiedOutput) instead of an ffprobe pass.
   */
  known?: CopiedPackets;
  /** The framecrc listing of the audio packets an earlier step encoded: their count is the audio `known` expects. */
  audioListing?: string;
  /** An .srt written beside the finished clip (its name, with .srt). */
  sidecar?: string;
}

export function videoScaleFilters(req: CutRequest): string[] {
  const video = req.info.video;
  if (!video) return [];
  const filters: string[] = [];
  const requested = req.quality ? qualityHeight(req.quality) : req.format === "gif" ? 480 : null;
  const height = targetHeight(video.height, requested);
  if (height < video.height) filters.push(`scale=-2:${height}:flags=bicubic`);
  if (req.watermark) filters.push(watermarkFilter(height));
  return filters;
}

export function audioTrim(startPts: number, endPts: number, resetToZero: boolean): string {
  return `atrim=start=${sec(startPts)}:end=${sec(endPts)}` + (resetToZero ? ",asetpts=PTS-STARTPTS" : "");
}

/** What both smart plans (H.264 and VP9) report: the exact range, in the source's seconds. */
export function smartResult(o: {
  steps: Step[];
  startPts: number;
  endPts: number;
  hasAudio: boolean;
  video: { width: number; height: number };
  /** Pictures the clip holds: the final check counts them in the written file. */
  frameCount: number;
  /** The audio encode's packet listing, when an earlier step encoded the clip's sound. */
  audioListing?: string;
}): Plan {
  return {
    strategy: "smart",
    startSeconds: toSeconds(o.startPts - STAGE_OFFSET),
    endSeconds: toSeconds(o.endPts - STAGE_OFFSET),
    snapped: false,
    expectVideo: true,
    expectAudio: o.hasAudio,
    steps: o.steps,
    // Checked like a copy, by count only: re-encoded parts have no source sizes to compare, and the H.264 muxer
    // rewrites packets (start codes into lengths). The audio count comes from `audioListing`.
    known: {
      seconds: toSeconds(o.endPts - o.startPts),
      width: o.video.width,
      height: o.video.height,
      videoSizes: new Array<number>(o.frameCount).fill(0),
      sizesExact: false,
      audioPackets: null,
    },
    audioListing: o.audioListing,
  };
}

/**
 * The step both smart plans share: re-encode one stretch of the stage (trimmed by `filter`) with the source's own
 * parameters (`encode`), frame times passed through, into one part (`mux`).
 */
export function reencodeStep(o: {
  input: string;
  filter: string;
  output: string;
  seconds: number;
  origin: number;
  encode: string[];
  mux: string[];
  /** Relative cost per media second (an encode is the expensive step of a plan). */
  costPerSecond: number;
}): Step {
  return {
    args: ["-copyts", "-i", o.input, "-map", "0:v:0", "-vf", o.filter, "-fps_mode", "passthrough", ...o.encode].concat(
      o.mux,
      [o.output],
    ),
    mediaSeconds: o.seconds,
    origin: o.origin,
    weight: o.costPerSecond * o.seconds,
  };
}

/**
 * The clip's audio, encoded on its own (at the same time as the video encodes), so the final mux only copies it.
 * AAC goes into MPEG-TS on the absolute clock: TS keeps the encoder's priming offset in the timestamps (the decoded
 * samples are identical to encoding in the final mux; Matroska would lose the priming). Opus goes into Matroska on
 * the clip's zero clock: its pre-skip travels in the header (MPEG-TS would lose it). `inputArgs` is how the final
 * mux reads it back onto the clip's clock.
 * The tee muxer also lists the packets it wrote, so the final check knows how many audio packets the clip holds.
 */
export function audioStep(
  req: CutRequest,
  stage: string,
  startPts: number,
  endPts: number,
  work: string,
  clipClock: "absolute" | "zero",
): { step: Step; listing: string; inputArgs: string[] } {
  const matroska = req.format === "webm";
  const output = join(work, matroska ? "audio.mka" : "audio.ts");
  const listing = join(work, "audio.crc");
  const container = matroska ? "[f=matroska]" : "[f=mpegts:max_delay=0]";
  // On the absolute clock the file says when each packet plays in the stage; a clip on a zero clock shifts it back.
  const shift = !matroska && clipClock === "zero" ? ["-itsoffset", `-${sec(startPts)}`] : [];
  return {
    step: {
      args: [
        "-copyts",
        "-i",
        stage,
        "-map",
        "0:a:0",
        "-af",
        audioTrim(startPts, endPts, matroska),
        ...audioCodecArgs(req.format, req.info.audio?.bitRate),
        "-f",
        "tee",
        `${container}${teeEscape(output)}|[f=framecrc]${teeEscape(listing)}`,
      ],
      mediaSeconds: toSeconds(endPts - startPts),
      origin: matroska ? 0 : toSeconds(startPts),
      weight: 0.1 * toSeconds(endPts - startPts),
      concurrent: true,
    },
    listing,
    inputArgs: [...shift, "-i", output],
  };
}

/** A path inside a tee muxer's output list: its special characters escaped with a backslash. */
function teeEscape(path: string): string {
  return path.replace(/[\\|'[\]:=]/g, (c) => `\\${c}`);
}
