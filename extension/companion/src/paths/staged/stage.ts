import { join } from "node:path";
import { runFfmpeg, type RunOptions } from "../../ffmpeg";
import { listingArgs } from "./listing";
import { sec, STAGE_OFFSET } from "./plan";
import { withRangeProxy } from "../../source/range-proxy";
import { inputArgs, type InputSpec } from "../../source/source";

/**
 * The staging read (docs/decisions/002-cut-strategy.md, "The stage"): one ffmpeg run that stream-copies the range of
 * the source into a local file and lists its packets. What it needs is known from the request and the source's streams;
 * the codec only chooses the container (MPEG-TS for H.264/HEVC, Matroska otherwise).
 */
export interface StageSpec {
  /** Where the read begins, on the source's own clock (readFromSeconds: before the start by the reorder delay). */
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
  // -seek_timestamp: the time is the source's own (the plan's clock, -copyts), not an offset from its start time,
  // which ffmpeg otherwise adds (a video whose first picture is presented after 0 was read from that much later).
  const seek = (input: InputSpec) => [
    "-seek_timestamp",
    "1",
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
