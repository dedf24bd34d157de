import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { companionRange } from "../../../app/domain/frames";
import { dryRun } from "../src/source/dry-run";
import { makeBandVideo, makeFragmentedNoEditList } from "./edge-media";
import { decodeBands } from "./frame-band";
import { cut, tools } from "./helpers";
import { run } from "./media";

/**
 * The handles' frames are the clip's first and last frames, and the true-cut report says so, on the edges of the frame
 * rule: media whose frame index is in their pixels (edge-media.ts), cut with the times the panel sends
 * (companionRange: the middle of each frame, to the millisecond).
 */
const DIR = join(tmpdir(), "clipcut-edge-media-v2");
const options = { tools, allowPrivateSources: true };

/** The first video packet's presentation time, in seconds. */
async function firstVideoPts(file: string): Promise<number> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1"],
    ...["-show_entries", "packet=pts_time", "-of", "csv=p=0", file],
  ]);
  return Number(stdout.toString().trim().split("\n")[0]);
}

/** The frame number a report's thumbnail (a JPEG data: URL) shows. */
async function jpegFrame(dataUrl: string): Promise<number | undefined> {
  const file = join(DIR, `thumb-${process.pid}-${Math.random().toString(36).slice(2)}.jpg`);
  await writeFile(file, Buffer.from(dataUrl.replace(/^data:image\/jpeg;base64,/, ""), "base64"));
  return (await decodeBands(file))[0];
}

describe("a 59.94 fps VP9 WebM whose video starts 7 ms late (Matroska's millisecond clock)", () => {
  const FPS = 60000 / 1001;
  const file = join(DIR, "vp9-5994-late.webm");
  beforeAll(() => makeBandVideo(file, { codec: "vp9", fps: "60000/1001", seconds: 3, gop: 60 }));

  it("starts its picture off the frame grid, by less than half a frame", async () => {
    const late = await firstVideoPts(file);
    expect(late).toBeGreaterThan(0.005);
    expect(late).toBeLessThan(0.5 / FPS);
  });

  // The ends whose frame starts 1 ms before the end sent (the middle of the frame, rounded), where the old rule
  // ("before the end less 1 ms") left it out; copies from a keyframe (60, 120) and smart cuts; 81 was always kept.
  for (const [first, last] of [
    [60, 90],
    [120, 150],
    [61, 83],
    [33, 44],
    [60, 81],
  ] as const) {
    it(`keeps the end handle's frame: frames ${first}–${last}, in the clip and in the report`, async () => {
      const range = companionRange({ first, last }, FPS);
      const clip = await cut({ source: file, start: range.startSeconds, end: range.endSeconds, format: "webm" });
      const shown = await decodeBands(clip.output);
      const report = await dryRun(
        { source: file, ...range, format: "webm", quality: "360p", watermark: false, thumbnails: false },
        options,
      );
      expect([shown[0], shown[shown.length - 1], shown.length]).toEqual([first, last, last - first + 1]);
      expect([report.firstFrame, report.lastFrame, report.frameCount]).toEqual([first, last, last - first + 1]);
    });
  }
});

describe("a VP9 WebM cut into WebM from the frame before a keyframe (a one-frame head)", () => {
  const FPS = 60000 / 1001;
  const file = join(DIR, "vp9-5994-late.webm");
  beforeAll(() => makeBandVideo(file, { codec: "vp9", fps: "60000/1001", seconds: 3, gop: 60 }));

  // The head's cluster holds one picture and one Opus packet, which the demuxer reads with no duration: the start
  // check then allowed the picture no lead over the sound (ffmpeg's muxer starts it at the priming, 7 ms).
  for (const [first, last] of [
    [59, 80],
    [119, 130],
  ] as const) {
    it(`writes frames ${first}–${last}: the re-encoded frame, then the copied GOP`, async () => {
      const range = companionRange({ first, last }, FPS);
      const clip = await cut({ source: file, start: range.startSeconds, end: range.endSeconds, format: "webm" });
      expect(clip.strategy).toBe("smart");
      const shown = await decodeBands(clip.output);
      expect(shown).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    });
  }
});

describe("the Free plan's watermark on a fragmented MP4 without an edit list (a DASH video stream)", () => {
  const FPS = 30;
  const GOP = 30;
  const file = join(DIR, "frag-no-elst-144.mp4");
  beforeAll(async () => {
    const progressive = join(DIR, "h264-144-g30.mp4");
    await makeBandVideo(progressive, { codec: "h264", fps: "30", seconds: 3, gop: GOP });
    await makeFragmentedNoEditList(progressive, file, true);
  });

  it("presents its pictures two frames late (B-frames, no edit list): frame n is shown at (n + 2) / fps", async () => {
    expect(await firstVideoPts(file)).toBeCloseTo(2 / FPS, 4);
  });

  // Handles on the two frames before the keyframe shown at frame 32 (picture 30), and on it: the frames ffmpeg's
  // seek in the stage (and ffprobe's read in the report) skipped, landing on the fragment that begins at that
  // keyframe's decode time.
  for (const first of [GOP, GOP + 1, GOP + 2]) {
    it(`re-encodes from the start handle's frame (frame ${first}): the clip, the report and its thumbnails`, async () => {
      const last = 50;
      const range = companionRange({ first, last }, FPS);
      const clip = await cut({ source: file, start: range.startSeconds, end: range.endSeconds, watermark: true });
      expect(clip.strategy).toBe("reencode");
      const shown = await decodeBands(clip.output);
      // The pictures' own numbers: two behind the frames the browser shows them at.
      expect(shown).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first - 2 + i));
      const report = await dryRun(
        { source: file, ...range, format: "mp4", quality: "144p", watermark: true, thumbnails: true },
        options,
      );
      expect([report.strategy, report.firstFrame, report.lastFrame, report.frameCount]).toEqual([
        "reencode",
        first,
        last,
        last - first + 1,
      ]);
      expect(await jpegFrame(report.thumbnails!.first)).toBe(first - 2);
      expect(await jpegFrame(report.thumbnails!.last)).toBe(last - 2);
    });
  }
});

/** Each decoded picture's checksum, in presentation order. */
async function pictureSums(file: string): Promise<string[]> {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-i", file, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"],
  ]);
  return stdout
    .toString()
    .split("\n")
    .filter((l) => /^\d/.test(l))
    .map((l) => l.split(",").pop()!.trim());
}

/** The clip's pictures that are not the source's own, decoded: those a cut re-encoded (a copied GOP decodes exactly). */
async function reencodedPictures(source: string, clip: string): Promise<number> {
  const own = new Set(await pictureSums(source));
  return (await pictureSums(clip)).filter((sum) => !own.has(sum)).length;
}

describe("the report's re-encoded frames are the frames the cut re-encodes", () => {
  const h264 = join(DIR, "h264-144-g30.mp4");
  const vp9 = join(DIR, "vp9-5994-late.webm");
  const vfr = join(DIR, "vfr-144-g30.mp4");
  beforeAll(async () => {
    await makeBandVideo(h264, { codec: "h264", fps: "30", seconds: 3, gop: 30 });
    await makeBandVideo(vp9, { codec: "vp9", fps: "60000/1001", seconds: 3, gop: 60 });
    // Variable rate: one frame in seven left out, so the gaps between pictures are one or two frames long.
    await makeBandVideo(vfr, { codec: "h264", fps: "30", seconds: 3, gop: 30, keep: "not(eq(mod(n,7),3))" });
  });

  for (const [name, fps, first, last, format] of [
    // A start on a keyframe, the end inside the same GOP: the whole clip is encoded.
    ["h264-144-g30.mp4", 30, 30, 50, "mp4"],
    ["h264-144-g30.mp4", 30, 10, 50, "mp4"],
    // A millisecond clock at 59.94 fps: frames 16 or 17 ms apart.
    ["vp9-5994-late.webm", 60000 / 1001, 5, 70, "webm"],
    ["vfr-144-g30.mp4", 30, 5, 40, "mp4"],
    ["vfr-144-g30.mp4", 30, 12, 70, "mp4"],
  ] as const) {
    it(`${name}, frames ${first}–${last}`, async () => {
      const source = join(DIR, name);
      const range = companionRange({ first, last }, fps);
      const report = await dryRun(
        { source, ...range, format, quality: "144p", watermark: false, thumbnails: false },
        options,
      );
      const clip = await cut({ source, start: range.startSeconds, end: range.endSeconds, format });
      expect(clip.strategy).toBe("smart");
      expect(report.strategy).toBe("smart");
      const reencoded = await reencodedPictures(source, clip.output);
      expect(reencoded).toBeGreaterThan(0);
      expect(report.headFrames + report.tailFrames).toBe(reencoded);
    });
  }
});
