import { existsSync, readdirSync } from "node:fs";
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Progress } from "../../../app/domain/companion";
import { parseCaptions, parseSrt } from "../../../app/domain/captions";
import { cropFor, type CropAspect } from "../../../app/domain/crop";
import { companionRange } from "../../../app/domain/frames";
import { hasLibass } from "../src/shorts";
import type { Trace } from "../src/trace";
import { cut, tempDir } from "./helpers";
import { run, tempBeside } from "./media";
import { startRangeServer, type RangeServer } from "./range-server";
import {
  captionPixels,
  columnIndices,
  decodeGrayFrames,
  frameIndex,
  makeIndexSource,
  probePackets,
  probeStreams,
  SRC_FPS,
  SRC_H,
  SRC_W,
} from "./shorts-media";

/**
 * The Shorts paths through the whole cut (cutClip): the pixel-indexed source served over http and read through the
 * guarded range proxy; a crop or burned-in captions encoded straight from it in one ffmpeg run (streamed shorts), a
 * captions track alone on a clip a copy cannot start staged first and encoded from the stage (staged shorts).
 */
const dir = inject("mediaDir");
const NAME = "shorts-index-v1.mp4";
const libass = await hasLibass("ffmpeg");
let server: RangeServer;

/**
 * The same frames as YouTube lays them out: fragmented, a sidx, a fragment per GOP. ffmpeg writes no edit list
 * there: the B-frames' delay stays in the timestamps, and frame N is shown from (N + 2) / 30 s.
 */
const FRAGMENTED = "shorts-index-v1-frag.mp4";
const DELAY: Record<string, number> = { [NAME]: 0, [FRAGMENTED]: 2 };

beforeAll(async () => {
  await makeIndexSource(join(dir, NAME));
  if (!existsSync(join(dir, FRAGMENTED))) {
    const tmp = tempBeside(join(dir, FRAGMENTED), ".mp4");
    await run("ffmpeg", [
      ...["-v", "error", "-y", "-i", join(dir, NAME), "-c", "copy", "-movflags"],
      ...["frag_keyframe+empty_moov+default_base_moof+global_sidx", tmp],
    ]);
    await rename(tmp, join(dir, FRAGMENTED));
  }
  server = await startRangeServer(dir);
}, 180_000);

/** A trace that keeps the names of the cut's phases (which path took it, whether a stage was read). */
function phases(): { names: string[]; trace: Trace } {
  const names: string[] = [];
  return {
    names,
    trace: { span: (name, fn) => (names.push(name), fn()), end: () => undefined },
  };
}
afterAll(() => server?.close());

/** The panel's handles: frames 37..66 (the stage starts at the keyframe on frame 30, B-frames before it). */
const FIRST = 37;
const LAST = 66;

const boxOf = (aspect: CropAspect, position: number) => {
  const crop = cropFor({ width: SRC_W, height: SRC_H }, aspect, position);
  if (!crop) throw new Error("no crop");
  return { x: crop.x, y: crop.y, width: crop.width, height: crop.height };
};

describe("streamed shorts: a cropped clip holds exactly the box's columns from the start handle's frame", () => {
  for (const [aspect, position] of [
    ["9:16", 0],
    ["9:16", 1],
    ["1:1", 0.5],
  ] as const)
    it(`${aspect} at ${position}: first and last frames, every column, the sound copied`, async () => {
      const crop = boxOf(aspect, position);
      const progress: Progress[] = [];
      const { names, trace } = phases();
      const result = await cut(
        { source: server.url(NAME), ...toRange(FIRST, LAST), crop },
        { onProgress: (p) => progress.push(p), trace },
      );
      // Encoded straight from the source: no stage, no second probe.
      expect(names).toContain("plan (streamed shorts)");
      expect(names.filter((n) => n === "stage" || n.startsWith("probe"))).toEqual([]);
      expect(result.strategy).toBe("reencode");
      expect(result.reason).toBe("re-encoded for the crop");
      expect([result.width, result.height]).toEqual([crop.width, crop.height]);
      expect(result.frames).toBe(LAST - FIRST + 1);
      expect(result.startSeconds).toBeCloseTo(FIRST / SRC_FPS, 6);
      const { frames } = await decodeGrayFrames(result.output, crop.width, crop.height);
      expect(frames.length).toBe(LAST - FIRST + 1);
      const columns = Array.from({ length: crop.width }, (_, i) => crop.x + i);
      for (const [frame, index] of [
        [frames[0], FIRST],
        [frames[frames.length - 1], LAST],
      ] as const) {
        if (!frame) throw new Error("no frame");
        expect(frameIndex(frame, crop.width)).toBe(index);
        expect(columnIndices(frame, crop.width)).toEqual(columns);
      }
      // The AAC is copied into the MP4 (not encoded again), from the first frame on.
      const streams = await probeStreams(result.output);
      expect(streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(["video:h264", "audio:aac"]);
      const audio = await probePackets(result.output, "a");
      expect(audio[0]?.pts ?? NaN).toBeGreaterThanOrEqual(0);
      expect(audio[0]?.pts ?? NaN).toBeLessThan(1024 / 48000 + 1e-6);
      const end = audio[audio.length - 1]!;
      expect(end.pts + end.duration).toBeGreaterThan((LAST - FIRST + 1) / SRC_FPS - 1024 / 48000);
      // Progress was shown between the start and the end, and it never went back.
      expect(progress.some((p) => p.percent > 0 && p.percent < 100)).toBe(true);
      expect(progress[progress.length - 1]?.percent).toBe(100);
      const percents = progress.map((p) => p.percent);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
    });
});

/** Cue A shows on source frames 30–49, cue B on 70–89 (each cue written at its frame's start, floored to the ms). */
const TRACK = `1
00:00:01,000 --> 00:00:01,666
Cue A here

2
00:00:02,333 --> 00:00:03,000
Cue B here
`;
const cues = parseCaptions(TRACK);
/** A solid white box around the text, found by pixels below the source's stripes. */
const BOX = { borderStyle: 3, outlineColour: "&H00FFFFFF", backColour: "&H00FFFFFF", outline: 4 } as const;

function toRange(first: number, last: number) {
  const { startSeconds, endSeconds } = companionRange({ first, last }, SRC_FPS);
  return { start: startSeconds, end: endSeconds };
}

describe.skipIf(!libass)("streamed shorts: burned-in captions start on their cue's frame on the clip's clock", () => {
  it("a start inside cue A (frame 40): A from the first frame to frame 49, B from 70 to 89", async () => {
    const crop = boxOf("9:16", 0.5);
    const result = await cut({
      source: server.url(NAME),
      ...toRange(40, 99),
      crop,
      captions: { cues, mode: "burn", style: BOX },
    });
    expect(result.reason).toBe("re-encoded for the crop and the burned-in captions");
    const { frames } = await decodeGrayFrames(result.output, crop.width, crop.height);
    expect(frames.length).toBe(60);
    expect(frameIndex(frames[0]!, crop.width)).toBe(40);
    const bright = frames.flatMap((f, i) => (captionPixels(f, crop.width, crop.height) > 30 ? [i] : []));
    const span = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a - 40 + i);
    expect(bright).toEqual([...span(40, 50), ...span(70, 90)]);
  });
});

describe("staged shorts: captions as a track of their own, and the .srt beside the clip", () => {
  it("without a crop the picture keeps its frame; the track and the .srt hold the shifted times", async () => {
    const outputDir = tempDir("clipcut-shorts-cut-");
    const result = await cut({
      source: server.url(NAME),
      ...toRange(55, 110),
      captions: { cues, mode: "soft", srt: true },
      outputDir,
      baseName: "talk",
    });
    expect(result.reason).toBe("re-encoded with the captions track: a copy cannot start or end on these frames");
    expect([result.width, result.height]).toEqual([SRC_W, SRC_H]);
    const track = (await probePackets(result.output, "s")).filter((p) => p.size > 2);
    // Cue B: frames 70–89 of the source are 15–34 of the clip.
    expect(track.map((p) => [p.pts, p.pts + p.duration].map((t) => Math.round(t * 1000)))).toEqual([[500, 1166]]);
    const srt = join(outputDir, "talk.srt");
    expect(existsSync(srt)).toBe(true);
    expect(parseSrt(await readFile(srt, "utf8")).map((c) => [c.start, c.end, c.text])).toEqual([
      [0.5, 1.166, "Cue B here"],
    ]);
    // Nothing else: no part file, no work files.
    expect(readdirSync(outputDir).sort()).toEqual(["talk.mp4", "talk.srt"]);
  });
});

describe("shorts: the first frame is the start handle's around a keyframe, streamed or staged", () => {
  // Frame 30 is a keyframe; 28 and 29 are shown before it and decoded after it (B-frames); 0 is the file's first.
  // A crop goes straight from the source; a captions track alone on a start inside a GOP is staged and re-encoded.
  for (const [how, first, name] of [
    ["crop", 28, NAME],
    ["crop", 29, NAME],
    ["crop", 30, NAME],
    ["crop", 31, NAME],
    ["crop", 0, NAME],
    ["crop", 29, FRAGMENTED],
    ["crop", 31, FRAGMENTED],
    ["crop", 60, FRAGMENTED],
    ["track", 29, NAME],
    ["track", 31, NAME],
    ["track", 29, FRAGMENTED],
  ] as const)
    it(`${how === "crop" ? "9:16, streamed" : "a captions track, staged"}: ${name}, frames ${first}–${first + 5}`, async () => {
      const crop = how === "crop" ? boxOf("9:16", 0.5) : null;
      const size = crop ?? { width: SRC_W, height: SRC_H };
      const { names, trace } = phases();
      const result = await cut(
        {
          source: server.url(name),
          // The times the file shows those frames at.
          ...toRange(first + DELAY[name]!, first + 5 + DELAY[name]!),
          ...(crop ? { crop } : { captions: { cues, mode: "soft" as const } }),
        },
        { trace },
      );
      expect(names).toContain(crop ? "plan (streamed shorts)" : "stage");
      expect(result.strategy).toBe("reencode");
      const { frames } = await decodeGrayFrames(result.output, size.width, size.height);
      expect(frames.map((f) => frameIndex(f, size.width))).toEqual([0, 1, 2, 3, 4, 5].map((i) => first + i));
      expect(result.startSeconds).toBeCloseTo((first + DELAY[name]!) / SRC_FPS, 6);
      expect(result.frames).toBe(6);
    });
});

/** ffprobe's description of a file's picture stream and its packets (times, sizes, keyframes). */
async function pictureOf(file: string) {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", "v:0", "-show_entries"],
    ...["stream=codec_name,profile,level,width,height,pix_fmt,has_b_frames:packet=pts_time,size,flags", "-of", "json"],
    file,
  ]);
  const parsed = JSON.parse(stdout.toString()) as {
    streams: Record<string, unknown>[];
    packets: { pts_time: string; size: string; flags: string }[];
  };
  const packets = parsed.packets.map((p) => ({
    pts: Number(p.pts_time),
    size: Number(p.size),
    key: p.flags[0] === "K",
  }));
  return { stream: parsed.streams[0], packets };
}

describe("staged remux: a captions track alone is muxed beside the copied picture, not re-encoded", () => {
  /** The source's frames 30–89: two whole GOPs (keyframes on 30 and 60), so a copy starts and ends on them. */
  const source = join(dir, NAME);
  for (const format of ["mp4", "mkv"] as const)
    it(`${format}: the picture stream is the source's, the cues on the copy's clock`, async () => {
      const outputDir = tempDir("clipcut-shorts-remux-");
      const { names, trace } = phases();
      const result = await cut(
        {
          source: server.url(NAME),
          ...toRange(30, 89),
          format,
          captions: { cues, mode: "soft", srt: true },
          outputDir,
          baseName: "talk",
        },
        { trace },
      );
      expect(result.strategy).toBe("copy");
      expect(result.reason).toMatch(/; the captions track added$/);
      expect(names).toContain("refused by staged copy: a captions track: staged remux");
      expect([result.startSeconds, result.frames, result.snapped]).toEqual([1, 60, false]);
      // Copied: the source's codec parameters, its keyframes (source frames 30 and 60), its bytes.
      const [clip, from] = await Promise.all([pictureOf(result.output), pictureOf(source)]);
      expect(clip.stream).toEqual(from.stream);
      const inRange = from.packets.filter((p) => p.pts >= 1 - 1e-3 && p.pts < 3 - 1e-3);
      expect(clip.packets.filter((p) => p.key).map((p) => Math.round(p.pts * SRC_FPS))).toEqual([0, 30]);
      // Every frame holds the source frame's bytes, plus the few the MPEG-TS stage adds (an access unit delimiter,
      // the parameter sets again on a keyframe): no encoder keeps a frame's size to a few bytes.
      const bySize = (list: { pts: number; size: number }[]) =>
        [...list].sort((x, y) => x.pts - y.pts).map((p) => p.size);
      const added = bySize(clip.packets).map((size, i) => size - (bySize(inRange)[i] ?? 0));
      expect(added).toHaveLength(60);
      expect(added.filter((extra) => extra < 0 || extra > 64)).toEqual([]);
      const { frames } = await decodeGrayFrames(result.output, SRC_W, SRC_H);
      expect(frames.map((f) => frameIndex(f, SRC_W))).toEqual(Array.from({ length: 60 }, (_, i) => 30 + i));
      // Cue A (frames 30–49) and B (70–89) on the clip's clock: frames 0–19 and 40–59.
      const track = (await probePackets(result.output, "s")).filter((p) => p.size > 2);
      expect(track.map((p) => [p.pts, p.pts + p.duration].map((t) => Math.round(t * 1000)))).toEqual([
        [0, 666],
        [1333, 2000],
      ]);
      const srt = parseSrt(await readFile(join(outputDir, "talk.srt"), "utf8"));
      expect(srt.map((c) => [c.start, c.end, c.text])).toEqual([
        [0, 0.666, "Cue A here"],
        [1.333, 2, "Cue B here"],
      ]);
    });

  it("a snap allowed: the copy starts on the keyframe before the start (frame 30 for 37), and so do the cues", async () => {
    const result = await cut({
      source: server.url(NAME),
      ...toRange(37, 89),
      allowSnap: true,
      captions: { cues, mode: "soft" },
    });
    expect([result.strategy, result.snapped, result.startSeconds]).toEqual(["copy", true, 1]);
    const { frames } = await decodeGrayFrames(result.output, SRC_W, SRC_H);
    expect(frameIndex(frames[0]!, SRC_W)).toBe(30);
    const track = (await probePackets(result.output, "s")).filter((p) => p.size > 2);
    expect(track.map((p) => Math.round(p.pts * 1000))).toEqual([0, 1333]);
  });
});
