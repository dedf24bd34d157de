import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companionRange } from "../../../app/domain/frames";
import { dryRun } from "../src/source/dry-run";
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
