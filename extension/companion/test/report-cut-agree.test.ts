import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companionRange } from "../../../app/domain/frames";
import { dryRun, HEAD_WINDOW_SECONDS } from "../src/source/dry-run";
import { makeBandVideo, makeFragmentedNoEditList as fragmentNoEditList } from "./edge-media";
import { decodeBands, makeFrameBandSource } from "./frame-band";
import { cut, tools } from "./helpers";
import { run } from "./media";
import { startRangeServer, type RangeServer } from "./range-server";

/**
 * The true-cut report and the cut read the same frames: on a fragmented MP4 with B-frames and no edit list (its
 * first picture is presented two frames after 0, and ffprobe's interval reads seek it differently from the
 * container's index), the first frame the report shows is the first frame the written clip holds.
 */
const DIR = join(tmpdir(), "clipcut-report-cut-agree-v1");
const NAME = "frag-no-elst.mp4";
const GOP = 30;
let server: RangeServer;

async function makeFragmentedNoEditList(path: string): Promise<void> {
  if (existsSync(path)) return;
  mkdirSync(DIR, { recursive: true });
  const progressive = join(DIR, "band.mp4");
  await makeFrameBandSource(progressive, { fps: "30", seconds: 8, gop: GOP });
  const tmp = `${path}.tmp.mp4`;
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-i", progressive, "-c", "copy", "-use_editlist", "0"],
    ...["-movflags", "frag_keyframe+empty_moov+default_base_moof", tmp],
  ]);
  await run("mv", [tmp, path]);
}

/** The frame number a JPEG shows. */
async function jpegFrame(dataUrl: string): Promise<number | undefined> {
  const file = join(DIR, `thumb-${process.pid}-${Math.random().toString(36).slice(2)}.jpg`);
  await run("sh", ["-c", `printf %s "$0" | base64 -d > "$1"`, dataUrl.replace(/^data:image\/jpeg;base64,/, ""), file]);
  return (await decodeBands(file))[0];
}

beforeAll(async () => {
  await makeFragmentedNoEditList(join(DIR, NAME));
  server = await startRangeServer(DIR);
});
afterAll(() => server.close());

describe("the report and the cut on a fragmented MP4 without an edit list", () => {
  it("has no edit list and presents its first picture after 0 (B-frames)", async () => {
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-read_intervals", "%+#3"],
      ...["-of", "csv=p=0", join(DIR, NAME)],
    ]);
    expect(Math.min(...stdout.toString().trim().split("\n").map(Number))).toBeGreaterThan(0);
    const { stdout: boxes } = await run("sh", ["-c", `grep -c elst "$0" || true`, join(DIR, NAME)]);
    expect(boxes.toString().trim()).toBe("0");
  });

  // Starts inside a GOP (the keyframes are presented at frames 2, 32, 62 …), among them the two before a keyframe.
  for (const first of [GOP - 1, GOP, GOP + 1, GOP + 7, 2 * GOP, 2 * GOP + 1]) {
    it(`starts the clip on the report's first frame (start at frame ${first})`, async () => {
      const range = companionRange({ first, last: first + 40 }, 30);
      const report = await dryRun(
        { source: server.url(NAME), ...range, format: "mp4", quality: "360p", watermark: false, thumbnails: true },
        { tools, allowPrivateSources: true },
      );
      const clip = await cut({ source: server.url(NAME), start: range.startSeconds, end: range.endSeconds });
      const shown = await decodeBands(clip.output);
      expect(report.firstFrame).toBe(first);
      expect(await jpegFrame(report.thumbnails!.first)).toBe(shown[0]);
      expect(await jpegFrame(report.thumbnails!.last)).toBe(shown[shown.length - 1]);
      expect(report.strategy).toBe(clip.strategy);
      expect(report.frameCount).toBe(clip.frames);
    });
  }
});

/**
 * The same on the clip's last frame, for a clip longer than the report's head window: the end handle on the two
 * frames before a keyframe (presented at 30k + 2), which sit in the fragment before the one that begins at that
 * keyframe's decode time, where ffprobe's read from the end lands. Copied in this process from the container's index:
 * by mediabunny (no sidx) and by the fragmented MP4 byte copy (a sidx).
 */
describe("the report and the cut on the last frame of a long clip (fragmented MP4 without an edit list)", () => {
  const plain = "long-frag-no-elst.mp4";
  const indexed = "long-frag-no-elst-sidx.mp4";
  beforeAll(async () => {
    const progressive = join(DIR, "long-band-144.mp4");
    await makeBandVideo(progressive, { codec: "h264", fps: "30", seconds: 16, gop: GOP });
    await fragmentNoEditList(progressive, join(DIR, plain));
    await fragmentNoEditList(progressive, join(DIR, indexed), false, true);
  }, 120_000);

  // From the keyframe presented at frame 32 (a copy) to the frames before the one presented at 392, and on it.
  for (const name of [plain, indexed]) {
    for (const last of [390, 391, 392]) {
      it(`ends the clip on the report's last frame (${name}, frames 32–${last})`, () =>
        expectReportOfClip(name, GOP + 2, last, "mp4", 2));
    }
  }
});

/**
 * A long VP9 WebM copy (the Matroska byte copy): on Matroska's millisecond clock the frames are 33 or 34 ms apart, so
 * the frames between the report's two readings are counted at the stream's rate, not at the median gap.
 */
describe("the report and the cut on a long VP9 WebM copy (a millisecond clock)", () => {
  const name = "long-vp9-144.webm";
  beforeAll(() => makeBandVideo(join(DIR, name), { codec: "vp9", fps: "30", seconds: 16, gop: GOP }), 120_000);

  it("reports the clip's last frame and its frame count (frames 30–389)", () =>
    expectReportOfClip(name, GOP, 13 * GOP - 1, "webm", 0));
});

/**
 * The report of frames `first`–`last` (on the browser's clock, `late` frames after the pictures' own numbers) says
 * what the clip cut from them holds, read from its pixels: a copy, its first and last frames, its frame count, and
 * thumbnails of those frames.
 */
async function expectReportOfClip(name: string, first: number, last: number, format: "mp4" | "webm", late: number) {
  const range = companionRange({ first, last }, 30);
  expect(range.endSeconds - range.startSeconds).toBeGreaterThan(HEAD_WINDOW_SECONDS);
  const report = await dryRun(
    { source: server.url(name), ...range, format, quality: "144p", watermark: false, thumbnails: true },
    { tools, allowPrivateSources: true },
  );
  const clip = await cut({ source: server.url(name), start: range.startSeconds, end: range.endSeconds, format });
  const shown = await decodeBands(clip.output);
  expect([clip.strategy, shown[0], shown[shown.length - 1], shown.length]).toEqual([
    "copy",
    first - late,
    last - late,
    last - first + 1,
  ]);
  expect([report.strategy, report.firstFrame, report.lastFrame, report.frameCount]).toEqual([
    clip.strategy,
    shown[0]! + late,
    shown[shown.length - 1]! + late,
    clip.frames,
  ]);
  expect(await jpegFrame(report.thumbnails!.first)).toBe(shown[0]);
  expect(await jpegFrame(report.thumbnails!.last)).toBe(shown[shown.length - 1]);
}
