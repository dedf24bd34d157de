import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Progress } from "../../../app/domain/companion";
import { parseCaptions, parseSrt } from "../../../app/domain/captions";
import { cropFor, type CropAspect } from "../../../app/domain/crop";
import { companionRange } from "../../../app/domain/frames";
import { hasLibass } from "../src/shorts";
import { cut, tempDir } from "./helpers";
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
 * The Shorts path through the whole cut (cutClip): the pixel-indexed source served over http, read through the
 * guarded range proxy, staged as MPEG-TS, then cropped (and captioned) from the stage in one ffmpeg run.
 */
const dir = inject("mediaDir");
const NAME = "shorts-index-v1.mp4";
const libass = await hasLibass("ffmpeg");
let server: RangeServer;

beforeAll(async () => {
  await makeIndexSource(join(dir, NAME));
  server = await startRangeServer(dir);
}, 180_000);
afterAll(() => server?.close());

/** The panel's handles: frames 37..66 (the stage starts at the keyframe on frame 30, B-frames before it). */
const FIRST = 37;
const LAST = 66;

const boxOf = (aspect: CropAspect, position: number) => {
  const crop = cropFor({ width: SRC_W, height: SRC_H }, aspect, position);
  if (!crop) throw new Error("no crop");
  return { x: crop.x, y: crop.y, width: crop.width, height: crop.height };
};

describe("staged shorts: a cropped clip holds exactly the box's columns from the start handle's frame", () => {
  for (const [aspect, position] of [
    ["9:16", 0],
    ["9:16", 1],
    ["1:1", 0.5],
  ] as const)
    it(`${aspect} at ${position}: first and last frames, every column, the sound copied`, async () => {
      const crop = boxOf(aspect, position);
      const progress: Progress[] = [];
      const result = await cut(
        { source: server.url(NAME), ...toRange(FIRST, LAST), crop },
        { onProgress: (p) => progress.push(p) },
      );
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
      // The AAC of the MPEG-TS stage is copied into the MP4 (not encoded again), from the first frame on.
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

describe.skipIf(!libass)("staged shorts: burned-in captions start on their cue's frame on the clip's clock", () => {
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
    expect(result.reason).toBe("re-encoded to add the captions track");
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
