import { expect } from "vitest";
import type { CutStrategy, Progress } from "../../../app/domain/companion";
import type { Format } from "../../../app/domain/media";
import { cutClip } from "../src/paths/cut";
import { probeMedia } from "../src/source/probe";
import { resolveSource, type InputSpec } from "../src/source/source";
import type { Trace } from "../src/trace";
import { tempDir, tools } from "./helpers";
import { run } from "./media";
import type { RangeServer } from "./range-server";

/** Cutting a source served over HTTP with ranges in-process, and comparing the clip with the source (frames, sound). */

/** A trace that records its span names: which path the cut took and why. */
export function recordingTrace(): Trace & { names: string[] } {
  const names: string[] = [];
  return { names, span: (name, fn) => (names.push(name), fn()), end: () => undefined };
}

export async function cutUrl(
  server: RangeServer,
  o: {
    name: string;
    start: number;
    end: number;
    format?: Format;
    audio?: string;
    allowSnap?: boolean;
    strategy?: CutStrategy;
    onProgress?: (p: Progress) => void;
  },
) {
  let input: InputSpec = await resolveSource(tools, server.url(o.name), { allowPrivate: true });
  if (o.audio) input = { ...input, audio: { ...input, url: server.url(o.audio), audio: undefined } };
  const info = await probeMedia(tools.ffprobe, input);
  const trace = recordingTrace();
  server.reset();
  const result = await cutClip(
    {
      input,
      info,
      startSeconds: o.start,
      endSeconds: o.end,
      format: o.format ?? "mp4",
      quality: null,
      strategy: o.strategy ?? "copy",
      allowSnap: o.allowSnap ?? true,
      watermark: false,
      outputDir: tempDir(),
      baseName: "clip",
    },
    { tools, trace, onProgress: o.onProgress },
  );
  return { result, trace: trace.names, requests: server.requests() };
}

/**
 * md5 of every decoded picture, from `from` seconds for `seconds` (accurate seek: exactly the frames shown); every
 * picture must decode without a complaint from the decoder (a part decoded with the wrong parameter sets would say so).
 */
export async function pictures(file: string, from?: number, seconds?: number): Promise<string[]> {
  // -seek_timestamp: -ss is the stream's own time, not an offset from the file's start (0.067 s in a video-only
  // fragmented MP4 with B-frames).
  const seek =
    from === undefined ? [] : ["-seek_timestamp", "1", "-ss", from.toFixed(6), "-t", (seconds ?? 0).toFixed(6)];
  const { stdout, stderr } = await run("ffmpeg", [
    ...["-v", "error", ...seek, "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"],
  ]);
  expect(stderr).toBe("");
  return stdout
    .toString()
    .split("\n")
    .filter((l) => /^\d/.test(l))
    .map((l) => l.split(",").pop()!.trim());
}

/** Packet start times (seconds) of a file's first stream of `kind`, as ffmpeg's demuxer reports them. */
export async function packetTimes(file: string, kind: "v" | "a"): Promise<number[]> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", `${kind}:0`, "-show_entries", "packet=pts_time", "-of", "csv=p=0", file],
  ]);
  return stdout
    .toString()
    .split("\n")
    .filter((l) => l.trim() && l.trim() !== "N/A")
    .map((l) => parseFloat(l));
}

/**
 * The clip against the source: the decoded pictures are the source's from the clip's start (first-frame md5 and
 * count), and the first audio packet sits where the source's first audio packet at or after the keyframe sits.
 */
export async function expectSameAsSource(
  clip: { output: string; startSeconds: number; endSeconds: number; frames: number | null },
  video: string,
  audio: string | null,
) {
  const got = await pictures(clip.output);
  const want = await pictures(video, clip.startSeconds, clip.endSeconds - clip.startSeconds - 0.001);
  expect(got.length).toBe(clip.frames);
  expect(got[0]).toBe(want[0]);
  expect(got).toEqual(want);
  if (!audio) return;
  const sourceAudio = await packetTimes(audio, "a");
  const firstAfter = sourceAudio.filter((t) => t >= clip.startSeconds - 0.0005).sort((a, b) => a - b)[0]!;
  const clipVideo = (await packetTimes(clip.output, "v")).sort((a, b) => a - b)[0]!;
  const clipAudio = (await packetTimes(clip.output, "a")).sort((a, b) => a - b)[0]!;
  // Within a millisecond of ffmpeg's placement (one AAC frame is 21 ms).
  expect(Math.abs(clipAudio - clipVideo - (firstAfter - clip.startSeconds))).toBeLessThan(0.0015);
}
