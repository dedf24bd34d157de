import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseCaptions, parseSrt, type Cue } from "../../../app/domain/captions";
import { cropFor } from "../../../app/domain/crop";
import { companionRange } from "../../../app/domain/frames";
import type { Format } from "../../../app/domain/media";
import { hasLibass } from "../src/shorts";
import { inputArgs } from "../src/source/source";
import {
  captionPixels,
  decodeGrayFrames,
  frameIndex,
  makeIndexSource,
  probePackets,
  removeWorkDirs,
  runShorts,
  SRC_FPS,
  SRC_H,
  SRC_W,
  workDir,
} from "./shorts-media";

const source = join(inject("mediaDir"), "shorts-index-v1.mp4");
const fileInput = () => inputArgs({ url: source, kind: "file", headers: {}, title: "t", original: source });
const libass = await hasLibass("ffmpeg");

beforeAll(() => makeIndexSource(source), 180_000);
afterAll(removeWorkDirs);

/**
 * Two cues on known frames of the 30 fps source, written as a caption file writes a frame's start (floored to the
 * millisecond): A on frames 30–49, B on frames 70–89.
 */
const TRACK = `1
00:00:01,000 --> 00:00:01,666
Cue A here

2
00:00:02,333 --> 00:00:03,000
Cue B here
`;
const cues: Cue[] = parseCaptions(TRACK);

/** A solid white box around the text: found by pixels below the source's stripes (black there). */
const BOX = { borderStyle: 3, outlineColour: "&H00FFFFFF", backColour: "&H00FFFFFF", outline: 4 } as const;

/** The clips: a start inside cue A, and a start between the cues. */
const INSIDE = { first: 40, last: 99 };
const BETWEEN = { first: 55, last: 110 };

const crop = cropFor({ width: SRC_W, height: SRC_H }, "9:16", 0.5);

async function cut(frames: { first: number; last: number }, mode: "burn" | "soft", format: Format, srt = false) {
  const work = await workDir("captions");
  const output = join(work, `clip.${format}`);
  const command = await runShorts({
    videoInput: fileInput(),
    audioInput: null,
    audioCodec: null,
    ...companionRange(frames, SRC_FPS),
    fps: SRC_FPS,
    source: { width: SRC_W, height: SRC_H },
    crop,
    scaleTo: null,
    captions: { cues, mode, srt, style: BOX },
    watermark: false,
    format,
    output,
    workDir: work,
  });
  return { command, output };
}

/** The clip's frames that show a cue, from frame a to frame b (exclusive) of the source. */
const shown = (clip: { first: number; last: number }, a: number, b: number) => {
  const out: number[] = [];
  for (let n = Math.max(a, clip.first); n < Math.min(b, clip.last + 1); n++) out.push(n - clip.first);
  return out;
};

describe.skipIf(!libass)("burned-in captions appear on exactly the frames their cues start and end on", () => {
  for (const [name, clip] of [
    ["a start inside a cue", INSIDE],
    ["a start between cues", BETWEEN],
  ] as const)
    it(name, async () => {
      if (!crop) throw new Error("no crop");
      const { command, output } = await cut(clip, "burn", "mp4");
      const { frames } = await decodeGrayFrames(output, crop.width, crop.height);
      expect(frames.length).toBe(clip.last - clip.first + 1);
      expect(frameIndex(frames[0] ?? Buffer.alloc(0), crop.width)).toBe(clip.first);
      const bright = frames.flatMap((f, i) => (captionPixels(f, crop.width, crop.height) > 30 ? [i] : []));
      expect(bright).toEqual([...shown(clip, 30, 50), ...shown(clip, 70, 90)]);
      expect(command.cues.length).toBe(clip === INSIDE ? 2 : 1);
    });
});

if (!libass) {
  it("burned-in captions: skipped, this machine's ffmpeg has no libass (ffmpeg -filters lists no ass filter)", () => {
    expect(libass).toBe(false);
  });
}

/** The cue times a file's caption track holds, in seconds (mov_text's empty gap samples left out). */
async function trackTimes(file: string): Promise<[number, number][]> {
  const packets = await probePackets(file, "s");
  return packets.filter((p) => p.size > 2).map((p) => [p.pts, Math.round((p.pts + p.duration) * 1e6) / 1e6]);
}

/** The shifted times, as written: each cue's first and end frame on the clip's clock, floored to the ms. */
const expected = (clip: { first: number; last: number }, spans: [number, number][]) =>
  spans
    .map(([a, b]) => [Math.max(a, clip.first) - clip.first, Math.min(b, clip.last + 1) - clip.first] as const)
    .filter(([a, b]) => b > a)
    .map(([a, b]) => [Math.floor((a / SRC_FPS) * 1000) / 1000, Math.floor((b / SRC_FPS) * 1000) / 1000]);

describe("a soft caption track holds the cues at their shifted times", () => {
  for (const format of ["mp4", "webm", "mkv"] as const)
    it(`${format}: ${format === "mp4" ? "mov_text" : "WebVTT"}, a start inside a cue and one between cues`, async () => {
      for (const clip of [INSIDE, BETWEEN]) {
        const { output } = await cut(clip, "soft", format);
        const times = await trackTimes(output);
        const want = expected(clip, [
          [30, 50],
          [70, 90],
        ]);
        expect(times.length).toBe(want.length);
        times.forEach(([start, end], i) => {
          expect(start).toBeCloseTo(want[i]?.[0] ?? NaN, 6);
          expect(end).toBeCloseTo(want[i]?.[1] ?? NaN, 6);
        });
      }
    });

  it("writes an .srt beside the clip with the same times", async () => {
    const { command, output } = await cut(INSIDE, "soft", "mp4", true);
    expect(command.sidecar?.path).toBe(output.replace(/\.mp4$/, ".srt"));
    const beside = parseSrt(await readFile(output.replace(/\.mp4$/, ".srt"), "utf8"));
    expect(beside.map((c) => [c.start, c.end])).toEqual(
      expected(INSIDE, [
        [30, 50],
        [70, 90],
      ]),
    );
    expect(beside.map((c) => c.text)).toEqual(["Cue A here", "Cue B here"]);
  });

  it("refuses a caption track in AVI, which cannot hold one", () => {
    return expect(cut(INSIDE, "soft", "avi")).rejects.toThrow(/cannot hold a caption track/);
  });
});
