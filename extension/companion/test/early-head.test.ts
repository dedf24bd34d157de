import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { startEarlyHead, waitForHead } from "../src/paths/staged/early-head";
import { runFfmpeg } from "../src/ffmpeg";
import { toTicks } from "../src/paths/keyframes";
import { listingArgs, readListing } from "../src/paths/staged/listing";
import { sec, STAGE_OFFSET } from "../src/paths/staged/plan";
import { h264HeadStep } from "../src/paths/staged/smart-h264";
import { vp9HeadStep } from "../src/paths/staged/smart-vp9";
import { probeMedia } from "../src/source/probe";
import type { CutRequest } from "../src/paths/request";
import { tempDir, tools } from "./helpers";
import { run } from "./media";

const dir = inject("mediaDir");

/** The pictures' times of a file (framecrc pts, in its time base). */
async function pictureTimes(file: string): Promise<string[]> {
  const { stdout } = await run("ffmpeg", [
    "-v",
    "error",
    "-i",
    file,
    "-map",
    "0:v:0",
    "-c",
    "copy",
    "-f",
    "framecrc",
    "-",
  ]);
  return stdout
    .toString()
    .split("\n")
    .filter((line) => /^\d/.test(line))
    .map((line) => line.split(",")[2]!.trim());
}

/** SSIM ("All") of two files' pictures, frame by frame. */
async function ssim(a: string, b: string): Promise<number> {
  const { stderr } = await run("ffmpeg", ["-i", a, "-i", b, "-lavfi", "ssim", "-f", "null", "-"]);
  return Number(/All:([\d.]+)/.exec(stderr.toString())?.[1] ?? 0);
}

/**
 * A staging run as the cut makes it (stage + flushed listing), read at twice realtime: slow enough that the head
 * can only be done early if it followed the stage as it was written.
 */
function slowStage(source: string, format: "mpegts" | "matroska", stage: string, listing: string, start: number) {
  const maps = ["-map", "0:v:0"];
  const args = ["-v", "error", "-y", "-copyts", "-readrate", "2", "-ss", String(start), "-t", "6", "-i", source];
  args.push(...maps, "-c", "copy", "-muxdelay", "0", "-output_ts_offset", sec(STAGE_OFFSET));
  if (format === "matroska") args.push("-cluster_time_limit", "500");
  args.push("-flush_packets", "1", "-f", format, stage, ...listingArgs(maps, sec(STAGE_OFFSET), listing));
  return new Promise<void>((resolve, reject) => {
    const child = spawn("ffmpeg", args, { stdio: "ignore" });
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`stage ${code}`))));
  });
}

describe("the early head: encoded from the stage while it is being written", () => {
  for (const c of [
    { name: "H.264 in MPEG-TS", file: "src360.mp4", format: "mpegts" as const, start: 10.5, head: h264HeadStep },
    { name: "VP9 in Matroska", file: "vp9-360.webm", format: "matroska" as const, start: 4.5, head: vp9HeadStep },
  ]) {
    it(`${c.name}: starts while the stage is written, with the same pictures as the same step run afterwards`, async () => {
      const source = join(dir, c.file);
      const work = tempDir("clipcut-early-head-");
      const stage = join(work, c.format === "mpegts" ? "stage.ts" : "stage.mkv");
      const listing = join(work, "stage.crc");
      const info = await probeMedia(tools.ffprobe, {
        kind: "file",
        url: source,
        original: source,
        title: "t",
        headers: {},
      });
      const req = { info, format: c.format === "mpegts" ? "mp4" : "webm", quality: null, watermark: false };
      const staging = slowStage(source, c.format, stage, listing, c.start);
      const found = await waitForHead({
        listing,
        clockTicks: c.format === "matroska" ? 90 : 1,
        startTick: toTicks(c.start) + STAGE_OFFSET,
        endTick: toTicks(c.start + 5) + STAGE_OFFSET,
        stageDone: staging,
      });
      // Null would mean the stage ended first: the head was known from a listing the stage was still writing.
      expect(found).not.toBeNull();
      const step = c.head(req as CutRequest, stage, work, found!.frames, found!.staged)!;
      const head = startEarlyHead(tools.ffmpeg, step, { timeoutMs: 60_000 });
      const ok = await head.done;
      await staging;
      expect(ok).toBe(true);
      // It followed the growing stage: planned from part of the listing, not the finished one (no clock compared;
      // how much sooner the cut ends is the bench's, bench/companion-cut.ts).
      const finished = await readListing(listing, c.format === "matroska" ? 90 : 1);
      expect(found!.staged.video.length).toBeLessThan(finished.video.length);
      // The same step on the finished stage, the way the plan runs it when there is no early head. The encoders
      // are not bit-for-bit repeatable (x264's threads under a rate cap), so: the same pictures at the same times,
      // and each picture as close to the other run's as two encodes of one frame are.
      const early = step.args[step.args.length - 1]!;
      const again = [...step.args];
      again[again.length - 1] = join(work, `again-${c.format}`);
      await runFfmpeg(tools.ffmpeg, again);
      const times = await pictureTimes(early);
      expect(times.length).toBeGreaterThan(10);
      expect(times).toEqual(await pictureTimes(again[again.length - 1]!));
      expect(await ssim(early, again[again.length - 1]!)).toBeGreaterThan(0.98);
    });
  }
});
