import type { CutStrategy, Progress } from "../../../../app/domain/companion";
import type { CropBox } from "../../../../app/domain/crop";
import type { Format, Quality } from "../../../../app/domain/media";
import type { AssStyle, CaptionMode, Cue } from "../../../../app/domain/captions";
import type { CopiedPackets, Verified } from "../check/verify";
import type { SizedPacket } from "../source/packet-windows";
import type { MediaInfo } from "../source/probe";
import type { ReadStats } from "../source/range-reader";
import type { CutFrames } from "./keyframes";
import type { ReadProgress } from "./read-progress";
import type { InputSpec } from "../source/source";
import type { Tools } from "../host/tools";
import type { Trace } from "../trace";

/** One cut, as the job queue and the CLI hand it to cutClip. */
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
  /** The crop box in this file's pixels (the panel's box moved onto the file's frame: cropOnFrame); none keeps the frame. */
  crop?: CropBox | null;
  /** The captions: the chosen track's cues (on the source's clock), burned in or muxed as a track. */
  captions?: ShortsCaptions | null;
}

export interface CutHooks {
  tools: Tools;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Timing spans (CLIPCUT_TRACE=1). */
  trace?: Trace;
  /** ffprobe's description of the source, for a request probed from its index (the job queue's cached one). */
  fullProbe?: () => Promise<MediaInfo>;
  /** The in-process plan already started for exactly this request (the job queue's, during the hold: early-plan.ts). */
  directPlan?: Promise<DirectOutcome>;
  /** That plan's read progress (read-progress.ts). */
  directReads?: ReadProgress;
  /**
   * The packets around the range, listed while the job was probed and held (a crop or burned-in captions: the
   * streamed path plans from them, streamed-shorts.ts); listed again when these windows are not the plan's.
   */
  packetsAhead?: PacketsAhead;
}

/** Packet windows of the source, listed ahead of the cut. */
export interface PacketsAhead {
  windows: [number, number][];
  packets: Promise<SizedPacket[]>;
}

/**
 * A clip planned by a path that writes it in this process (paths/index.ts, paths 1–3): the packets are chosen from
 * the container's index before any media byte is read.
 */
export interface DirectPlan {
  strategy: "copy" | "smart";
  /** How the clip is read and written (the trace names it): the MP4 byte copy, or mediabunny and why. */
  via?: string;
  /** Where the picture starts (the keyframe, or a smart cut's start frame) and ends, in the source's seconds. */
  startSeconds: number;
  endSeconds: number;
  snapped: boolean;
  reason: string;
  frames: CutFrames;
  known: CopiedPackets;
  /** Writes the clip to `out`; the written file is checked against the plan before it resolves. */
  write(
    out: string,
    o: { signal?: AbortSignal; ffmpeg: string; onProgress?: (fraction: number) => void },
  ): Promise<Verified>;
  /** Stops every read (the plan holds the source open until then). */
  close(): Promise<void>;
  /** Requests and bytes read so far, and the most bytes held at once. */
  stats(): ReadStats;
}

/** A path that did not take the request, and why (traced by the path's name). */
export interface Refusal {
  path: string;
  why: string;
}

/**
 * The in-process paths' answer: the plan of the first that takes the request, or the last refusal (what the staged
 * ffmpeg path is told); every refusal on the way, in order.
 */
export type DirectOutcome = ({ plan: DirectPlan; path: string } | { refused: string }) & { refusals: Refusal[] };

/** A single in-process path's answer; `chose`: the strategy rule, not the container, ruled a copy out. */
export type PathOutcome = { plan: DirectPlan } | { refused: string; chose?: "smart" | "reencode" };

export interface ShortsCaptions {
  /** The whole track, on the source's clock (parseCaptions); the command keeps what overlaps the clip. */
  cues: readonly Cue[];
  mode: CaptionMode;
  /** Also write an .srt beside the clip. */
  srt?: boolean;
  /** Changes to the phone style (tests draw a solid box to find the text in pixels). */
  style?: Partial<AssStyle>;
}
