import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { CutStrategy } from "../../../app/domain/companion";
import type { Format } from "../../../app/domain/media";
import { cutUrl as cutServed, packetTimes, pictures } from "./copy-helpers";
import { bestMatch, decodeGray } from "./frames";
import { run } from "./media";
import { startRangeServer, type RangeServer } from "./range-server";

/**
 * H.264 smart cuts of a served MP4 (the staged smart cut: an in-process one was no faster on a realistic link and
 * was removed, bench/results/companion-cut.md): only the head and the tail go through x264, the GOPs between are
 * copied. The clip must hold exactly ffmpeg's decoded frames of the range: the copied ones bit-for-bit, the encoded
 * first and last pictures the right source frames; its sound starts with its picture. Sources are served over HTTP
 * with ranges.
 */
const dir = inject("mediaDir");
let server: RangeServer;

/** 30 fps, a keyframe every 2 s, AAC, without B-frames (the generated src360.mp4 has two B-frames per group). */
async function makeNoBFrames(path: string) {
  if (existsSync(path)) return;
  const tmp = `${path}.tmp.mp4`;
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi"],
    ...["-i", "sine=frequency=440:sample_rate=48000:beep_factor=4", "-t", "40", "-c:v", "libx264"],
    ...["-preset", "ultrafast", "-bf", "0", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-b:v", "600k"],
    ...["-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart", tmp],
  ]);
  await run("mv", [tmp, path]);
}

beforeAll(async () => {
  await makeNoBFrames(join(dir, "nob360.mp4"));
  server = await startRangeServer(dir);
});
afterAll(() => server.close());

/** A cut of a served source, by `auto` unless asked, never snapped: which path it took and why. */
const cutUrl = (o: { name: string; start: number; end: number; format?: Format; strategy?: CutStrategy }) =>
  cutServed(server, { ...o, strategy: o.strategy ?? "auto", allowSnap: false });

/** Packet start times of a file's first stream of `kind`, earliest first. */
const sortedTimes = async (file: string, kind: "v" | "a") => (await packetTimes(file, kind)).sort((x, y) => x - y);

/**
 * The clip against ffmpeg's own decoding of the range: the same number of pictures; the copied ones (`copied`:
 * [from, to) clip frame numbers) bit-for-bit; the first and last pictures (re-encoded) closest to the range's first
 * and last; the sound starting where the source's first audio packet at or after the start sits.
 */
async function expectTheRange(
  clip: { output: string; startSeconds: number; endSeconds: number; frames: number | null },
  source: string,
  copied: [number, number],
) {
  const seconds = clip.endSeconds - clip.startSeconds - 0.001;
  const got = await pictures(clip.output);
  const want = await pictures(source, clip.startSeconds, seconds);
  expect(got).toHaveLength(want.length);
  expect(clip.frames).toBe(want.length);
  expect(got.slice(...copied)).toEqual(want.slice(...copied));
  // The ends are new encodes, not the source's bytes: each must look like its source frame, not a neighbour.
  expect(got[0]).not.toBe(want[0]);
  const gotGray = await decodeGray(clip.output);
  const wantGray = await decodeGray(source, ["-ss", clip.startSeconds.toFixed(6), "-t", seconds.toFixed(6)]);
  const first = bestMatch(gotGray[0]!, wantGray, 0, 3);
  const last = bestMatch(gotGray[gotGray.length - 1]!, wantGray, wantGray.length - 1, 3);
  expect(first).toMatchObject({ index: 0 });
  expect(last).toMatchObject({ index: wantGray.length - 1 });
  expect(Math.max(first.diff, last.diff)).toBeLessThan(3);
  // The sound is encoded for the clip, cut at its start: it starts with the picture (within one AAC frame).
  const clipVideo = (await sortedTimes(clip.output, "v"))[0]!;
  const clipAudio = (await sortedTimes(clip.output, "a"))[0]!;
  expect(Math.abs(clipAudio - clipVideo)).toBeLessThan(0.024);
}

describe("H.264 smart cuts", () => {
  it("a source with B-frames: head and tail encoded, the GOPs between copied", async () => {
    // 10.5 s is inside a GOP (keyframes every 2 s): frames 10.5–12 s are encoded, 12–30 s copied, and the end at
    // 30.7 s is not a closed prefix of the last GOP, so a few frames after its longest closed prefix are encoded.
    const { result, trace } = await cutUrl({ name: "src360.mp4", start: 10.5, end: 30.7 });
    expect(trace).toContain("ffmpeg path: auto chose smart");
    expect(result).toMatchObject({ strategy: "smart", snapped: false, startSeconds: 10.5, frames: 606 });
    await expectTheRange(result, join(dir, "src360.mp4"), [45, 600]);
  });

  it("a source without B-frames: any end is a closed prefix, only the head is encoded", async () => {
    const { result, trace } = await cutUrl({ name: "nob360.mp4", start: 5.4, end: 17.2, strategy: "smart" });
    expect(trace).toContain("ffmpeg path: smart asked: smart cuts are staged by ffmpeg");
    expect(result).toMatchObject({ strategy: "smart", startSeconds: 5.4, frames: 354 });
    // 5.4 s is frame 162, the next keyframe 6 s (frame 180): 18 frames encoded, the rest copied to the end.
    const got = await pictures(result.output);
    const want = await pictures(join(dir, "nob360.mp4"), 5.4, 17.2 - 5.4 - 0.001);
    expect(got.slice(18)).toEqual(want.slice(18));
    expect(got.slice(0, 18).every((hash, i) => hash !== want[i])).toBe(true);
    await expectTheRange({ ...result, endSeconds: 17.2 }, join(dir, "nob360.mp4"), [18, 353]);
  });

  it("a clip inside one GOP is encoded whole", async () => {
    const { result } = await cutUrl({ name: "src360.mp4", start: 20.3, end: 21.5 });
    expect(result).toMatchObject({ strategy: "smart", frames: 36 });
    const got = await pictures(result.output);
    const want = await pictures(join(dir, "src360.mp4"), 20.3, 1.2 - 0.001);
    expect(got).toHaveLength(want.length);
  });
});
