import type { CutStrategy, Progress } from "../../../../app/domain/companion";
import type { Format, Quality } from "../../../../app/domain/media";
import type { DirectOutcome } from "./direct-copy";
import type { MediaInfo } from "../source/probe";
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
}
