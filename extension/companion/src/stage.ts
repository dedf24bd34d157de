import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFfmpeg, startInBackground, type BackgroundRun, type RunOptions } from "./ffmpeg";
import { listingArgs } from "./listing";
import { sec, STAGE_MARGIN_SECONDS, STAGE_OFFSET } from "./plan";
import { withRangeProxy } from "./range-proxy";
import { inputArgs, type InputSpec } from "./source";

/**
 * The staging read (docs/decisions/002, 1 and 8): one ffmpeg run that stream-copies the range of the source into a
 * local file and lists its packets. What it needs is known from the request and the source's streams; the codec only
 * chooses the container (MPEG-TS for H.264/HEVC, Matroska otherwise).
 */
export interface StageSpec {
  startSeconds: number;
  /** Seconds read from the start: the clip plus the margin (more is harmless, ffmpeg stops at the file's end). */
  readSeconds: number;
  format: "mpegts" | "matroska";
  video: boolean;
  audio: boolean;
}

export function stagePaths(work: string, format: StageSpec["format"]) {
  return { stage: join(work, format === "mpegts" ? "stage.ts" : "stage.mkv"), listing: join(work, "stage.crc") };
}

/** Stages `input` (through the guarded range proxy when remote) into `stage`, its packet listing into `listing`. */
export function runStage(
  ffmpeg: string,
  source: InputSpec,
  spec: StageSpec,
  paths: { stage: string; listing: string },
  options: RunOptions,
): Promise<void> {
  const seek = (input: InputSpec) => [
    "-ss",
    spec.startSeconds.toFixed(6),
    "-t",
    spec.readSeconds.toFixed(6),
    ...inputArgs(input),
  ];
  return withRangeProxy(source, async (input) => {
    let inputs: string[];
    let maps: string[];
    if (input.audio) {
      // DASH: two reads (video-only and audio-only, each through its own bounded-range proxy) joined on one clock.
      const { audio, ...video } = input;
      inputs = [...(spec.video ? seek(video) : []), ...(spec.audio ? seek(audio) : [])];
      maps = [...(spec.video ? ["-map", "0:v:0"] : []), ...(spec.audio ? ["-map", `${spec.video ? 1 : 0}:a:0`] : [])];
    } else {
      inputs = seek(input);
      maps = [...(spec.video ? ["-map", "0:v:0"] : []), ...(spec.audio ? ["-map", "0:a:0"] : [])];
    }
    await runFfmpeg(
      ffmpeg,
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
        // Written as it is read, so a head encode can follow it (early-head.ts): TS packets are flushed as they
        // come, Matroska holds a cluster in memory until it closes (5 s by default, a whole GOP).
        ...(spec.format === "matroska" ? ["-cluster_time_limit", "500"] : []),
        "-flush_packets",
        "1",
        "-f",
        spec.format,
        paths.stage,
        // The same packets, listed for the plan (no second pass over the stage).
        ...listingArgs(maps, sec(STAGE_OFFSET), paths.listing),
      ],
      options,
    );
  });
}

/**
 * A staging read started before the source's probe has answered (issue 22: the probe and the read were two
 * sequential processes before a copy clip's mux). It guesses what the probe will say — a picture and a sound, the
 * container from the URL — and the cut uses it only when the guess was right (`sameStage`); otherwise the cut stages
 * again as before. The job that starts it disposes of it (stops the run, removes its folder) when it ends.
 */
export interface EarlyStage extends BackgroundRun {
  spec: StageSpec;
  stage: string;
  listing: string;
  /** Stops the run and removes its folder. */
  dispose(): Promise<void>;
}

export async function startEarlyStage(
  ffmpeg: string,
  input: InputSpec,
  spec: StageSpec,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<EarlyStage> {
  const work = await mkdtemp(join(tmpdir(), "clipcut-early-"));
  const paths = stagePaths(work, spec.format);
  const run = startInBackground(
    ({ signal, onProgress }) =>
      runStage(ffmpeg, input, spec, paths, { signal, timeoutMs: options.timeoutMs, onProgress }),
    options.signal,
  );
  return {
    ...run,
    spec,
    ...paths,
    async dispose() {
      await run.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/**
 * The read a video cut of `startSeconds`–`endSeconds` will most likely need, before the probe: a picture and a
 * sound, the container from the URL, the end not yet capped at the duration.
 */
export function guessedStage(input: InputSpec, startSeconds: number, endSeconds: number): StageSpec {
  return {
    startSeconds,
    readSeconds: endSeconds - startSeconds + STAGE_MARGIN_SECONDS,
    format: guessStageFormat(input),
    video: true,
    audio: true,
  };
}

/** The staging run's time limit: a generous floor plus a tenth of realtime (a slow network). */
export const stageTimeoutMs = (mediaSeconds: number) => Math.round((120 + mediaSeconds * 10) * 1000);

/** The container guessed from the URL before the probe: Matroska for WebM/MKV, MPEG-TS (H.264/HEVC) otherwise. */
export function guessStageFormat(input: InputSpec): StageSpec["format"] {
  return /\.(webm|mkv)(\?|$)|mime=video%2Fwebm/i.test(input.url) ? "matroska" : "mpegts";
}

/** The early read is the one the cut would make (it may have read further: the end was not yet capped). */
export function sameStage(early: StageSpec, wanted: StageSpec): boolean {
  return (
    early.format === wanted.format &&
    early.video === wanted.video &&
    early.audio === wanted.audio &&
    early.startSeconds.toFixed(6) === wanted.startSeconds.toFixed(6) &&
    early.readSeconds >= wanted.readSeconds - 1e-6
  );
}
