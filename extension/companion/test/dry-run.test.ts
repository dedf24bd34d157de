import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { companionRange } from "../../../app/domain/frames";
import { dryRun } from "../src/source/dry-run";
import { decodeBands, makeFrameBandSource } from "./frame-band";
import { cut, tools } from "./helpers";
import { run } from "./media";

/**
 * The true-cut report on a file whose keyframes are known (x264 -g 60 at 30 fps: keyframes at frames 0, 60, 120 …)
 * and whose frame number is written in its pixels: the report's plan, the thumbnails and the cut agree.
 */
const FILE = join(tmpdir(), "clipcut-frame-band-v2", "band30-g60.mp4");
const GOP = 60;
const options = { tools, allowPrivateSources: true };
const ask = (first: number, last: number, thumbnails = false) =>
  dryRun(
    {
      source: FILE,
      ...companionRange({ first, last }, 30),
      format: "mp4",
      quality: "360p",
      watermark: false,
      thumbnails,
    },
    options,
  );

/** The frame number a JPEG shows. */
const jpegFrame = async (dataUrl: string) => {
  const file = join(tmpdir(), `clipcut-thumb-${process.pid}-${Math.random().toString(36).slice(2)}.jpg`);
  await run("sh", ["-c", `printf %s "$0" | base64 -d > "$1"`, dataUrl.replace(/^data:image\/jpeg;base64,/, ""), file]);
  const [frame] = await decodeBands(file);
  return frame;
};

beforeAll(async () => {
  await makeFrameBandSource(FILE, { fps: "30", seconds: 20, gop: GOP });
});

describe("the dry run's report", () => {
  it("copies exactly at multiples of the GOP and re-encodes up to the next keyframe otherwise", async () => {
    for (const first of [0, 60, 120, 95, 101, 119, 121, 179, 240]) {
      const last = first + 70;
      const report = await ask(first, last);
      expect(report.fps).toBe(30);
      expect(report.firstFrame).toBe(first);
      expect(report.lastFrame).toBe(last);
      expect(report.frameCount).toBe(last - first + 1);
      const onKey = first % GOP === 0;
      expect(report.startOnKey).toBe(onKey);
      const nextKey = Math.ceil(first / GOP) * GOP;
      expect(report.headFrames).toBe(onKey ? 0 : nextKey - first);
      expect(report.keyBefore).toBe(Math.floor(first / GOP) * GOP);
      expect(report.keyAfter).toBe(onKey ? first + GOP : nextKey);
      expect(report.sizeBytes.low).toBeLessThan(report.sizeBytes.high);
      expect(report.seconds.low).toBeLessThanOrEqual(report.seconds.high);
    }
  });

  it("re-encodes everything when the plan adds a watermark, and says why", async () => {
    const report = await dryRun(
      {
        source: FILE,
        ...companionRange({ first: 95, last: 160 }, 30),
        format: "mp4",
        quality: "360p",
        watermark: true,
        thumbnails: false,
      },
      options,
    );
    expect(report.strategy).toBe("reencode");
    expect(report.headFrames).toBe(66);
    expect(report.reason).toContain("watermark");
  });

  it("decodes thumbnails at the plan's first and last frames, not at the typed times", async () => {
    // 3.367 s is frame 101's start (3.3667 s) typed to the millisecond: the browser and the plan show frame 101 there,
    // `ffmpeg -ss 3.367` would decode frame 102. 10 s is the exclusive end: the last frame is 299, `-ss 10` gives 300.
    const report = await dryRun(
      {
        source: FILE,
        startSeconds: 3.367,
        endSeconds: 10,
        format: "mp4",
        quality: "360p",
        watermark: false,
        thumbnails: true,
      },
      options,
    );
    expect(report.firstFrame).toBe(101);
    expect(report.lastFrame).toBe(299);
    expect(await jpegFrame(report.thumbnails!.first)).toBe(101);
    expect(await jpegFrame(report.thumbnails!.last)).toBe(299);
  });

  it("reports the frame count, first and last frames and size of the file the cut then writes", async () => {
    for (const [first, last] of [
      [95, 160],
      [120, 300],
      [17, 520],
    ] as const) {
      const report = await ask(first, last);
      const result = await cut({
        source: FILE,
        start: companionRange({ first, last }, 30).startSeconds,
        end: companionRange({ first, last }, 30).endSeconds,
      });
      const frames = await decodeBands(result.output);
      expect(frames.length).toBe(report.frameCount);
      expect(frames[0]).toBe(first);
      expect(frames[frames.length - 1]).toBe(last);
      expect(result.strategy).toBe(report.strategy);
      const size = statSync(result.output).size;
      expect(size).toBeGreaterThanOrEqual(report.sizeBytes.low);
      expect(size).toBeLessThanOrEqual(report.sizeBytes.high);
    }
  });
});
