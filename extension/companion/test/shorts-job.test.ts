import { chmod, writeFile } from "node:fs/promises";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { describeStart } from "../../../app/domain/true-cut";
import type { ClipJobRequest } from "../../../app/domain/companion";
import { companionRange } from "../../../app/domain/frames";
import { JobQueue } from "../src/host/jobs";
import { captionFilesFromYtDlp, fetchCaptionCues } from "../src/source/captions";
import { dryRun } from "../src/source/dry-run";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir } from "./helpers";
import { startRangeServer, type RangeServer } from "./range-server";
import { captionPixels, columnIndices, decodeGrayFrames, frameIndex, makeIndexSource, SRC_FPS } from "./shorts-media";
import { fakeYtDlp, UA, type FakeYtDlp } from "./ytdlp-fixture";

/**
 * A Shorts job from a video page: yt-dlp (the stand-in) lists the caption tracks, the companion fetches the chosen
 * one through the source's guard, and the queue cuts the cropped, captioned clip; or refuses before reserving.
 */
const dir = inject("mediaDir");
const NAME = "shorts-index-v1.mp4";
const PAGE = "https://www.youtube.com/watch?v=shorts00001";
const TOKEN = "tok-shorts-job-1";
let api: FakeApi;
let media: RangeServer;
let subs: RangeServer;
let yt: FakeYtDlp;

/** Cue A on source frames 30–49, cue B on 70–89. */
const VTT = `WEBVTT

00:00:01.000 --> 00:00:01.666
Cue A here

00:00:02.333 --> 00:00:03.000
Cue B here
`;

beforeAll(async () => {
  await makeIndexSource(join(dir, NAME));
  const subsDir = tempDir("clipcut-subs-");
  await writeFile(join(subsDir, "en.vtt"), VTT);
  api = await startFakeApi([{ token: TOKEN, plan: "Pro", balance: 100_000 }]);
  media = await startRangeServer(dir);
  subs = await startRangeServer(subsDir);
  const track = (lang: string, name: string) => [
    { ext: "json3", url: subs.url(`${lang}.json3`), name },
    { ext: "vtt", url: subs.url(`${lang}.vtt`), name },
  ];
  yt = fakeYtDlp({
    id: "shorts00001",
    title: "Shorts demo",
    duration: 4,
    formats: [
      {
        format_id: "18",
        url: media.url(NAME),
        ext: "mp4",
        protocol: "https",
        vcodec: "avc1.64001E",
        acodec: "mp4a.40.2",
        width: 640,
        height: 360,
        http_headers: { "User-Agent": UA },
      },
    ],
    subtitles: { en: track("en", "English"), live_chat: [{ ext: "json", url: subs.url("chat.json") }] },
    automatic_captions: { "en-orig": track("en", "English (Original)"), fr: [{ ext: "srv3", url: subs.url("x") }] },
  });
}, 180_000);
afterAll(async () => {
  await Promise.all([api?.close(), media?.close(), subs?.close()]);
});

const queueWith = (ffmpeg?: string) => {
  const outputDir = tempDir("clipcut-shorts-job-");
  const queue = new JobQueue({
    tools: { ...yt.tools, ...(ffmpeg ? { ffmpeg } : {}) },
    outputDir,
    concurrency: 1,
    session: () => ({ apiToken: TOKEN, apiBaseUrl: api.baseUrl }),
    allowPrivateSources: true,
  });
  return { queue, outputDir };
};

const range = (first: number, last: number) => companionRange({ first, last }, SRC_FPS);

describe("caption tracks from yt-dlp's JSON", () => {
  it("lists subtitles then automatic captions with a WebVTT (else SRT) file; no chat replay, no unreadable track", () => {
    const files = captionFilesFromYtDlp(
      {
        subtitles: {
          en: [
            { ext: "json3", url: "https://x/en.json3" },
            { ext: "srt", url: "https://x/en.srt" },
            { ext: "vtt", url: "https://x/en.vtt", name: "English" },
          ],
          de: [{ ext: "srt", url: "https://x/de.srt" }],
          live_chat: [{ ext: "vtt", url: "https://x/chat" }],
        },
        automatic_captions: { "en-orig": [{ ext: "vtt", url: "https://x/a.vtt" }], fr: [{ ext: "srv3", url: "x" }] },
      },
      { "User-Agent": UA },
    );
    expect(files.map((f) => [f.lang, f.auto, f.ext, f.url, f.name ?? null])).toEqual([
      ["en", false, "vtt", "https://x/en.vtt", "English"],
      ["de", false, "srt", "https://x/de.srt", null],
      ["en-orig", true, "vtt", "https://x/a.vtt", null],
    ]);
    expect(files[0]?.headers).toEqual({ "User-Agent": UA });
  });

  it("fetches a track through the source's guard: a private address is refused unless allowed", async () => {
    const file = { lang: "en", auto: false, ext: "vtt" as const, url: subs.url("en.vtt"), headers: {} };
    subs.reset();
    await expect(fetchCaptionCues(file, { allowPrivate: false })).rejects.toMatchObject({
      code: "source_not_allowed",
    });
    expect(subs.requests()).toBe(0);
    const cues = await fetchCaptionCues(file, { allowPrivate: true });
    expect(cues.map((c) => c.text)).toEqual(["Cue A here", "Cue B here"]);
  });
});

describe("a Shorts job from a video page", () => {
  it("crops to 9:16 at the left edge with the page's English captions burned in, on their cue's frames", async () => {
    const { queue } = queueWith();
    const job = queue.submit({
      source: PAGE,
      ...range(40, 99),
      format: "mp4",
      aspect: "9:16",
      cropPosition: 0,
      captions: { track: "en", mode: "burn" },
    });
    await queue.idle();
    const done = queue.get(job.id)!;
    expect(done.error).toBeNull();
    expect(done.status).toBe("done");
    const result = done.result!;
    expect(result.reason).toBe("re-encoded for the crop and the burned-in captions");
    expect([result.width, result.height]).toEqual([202, 360]);
    const { frames } = await decodeGrayFrames(result.output, 202, 360);
    expect(frames.length).toBe(60);
    expect(frameIndex(frames[0]!, 202)).toBe(40);
    expect(columnIndices(frames[0]!, 202)).toEqual(Array.from({ length: 202 }, (_, i) => i));
    // The phone style's white letters, below the source's stripes, on exactly the frames their cues cover.
    const bright = frames.flatMap((f, i) => (captionPixels(f, 202, 360) > 30 ? [i] : []));
    const span = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a - 40 + i);
    expect(bright).toEqual([...span(40, 50), ...span(70, 90)]);
    // The hold priced the crop: the box's short side on this frame.
    const hold = [...api.holds.values()].pop();
    expect(hold?.clip).toMatchObject({ aspect: "9:16", cropPosition: 0, captions: { track: "en", mode: "burn" } });
  });

  const refused = async (request: Partial<ClipJobRequest>, ffmpeg?: string) => {
    const { queue, outputDir } = queueWith(ffmpeg);
    const holds = api.holds.size;
    const job = queue.submit({ source: PAGE, ...range(40, 99), format: "mp4", aspect: "9:16", ...request });
    await queue.idle();
    const failed = queue.get(job.id)!;
    expect(failed.status).toBe("failed");
    // Nothing reserved, nothing written.
    expect(api.holds.size).toBe(holds);
    expect(readdirSync(outputDir)).toEqual([]);
    return failed.error!;
  };

  it("refuses captions in a language the video has no track for: a 400 that names it", async () => {
    const error = await refused({ captions: { track: "de", mode: "soft" } });
    expect(error).toMatchObject({ code: "captions_no_track", status: 400 });
    expect(error.message).toMatch(/no caption track in that language \(asked: de\)\. It has: en, en-orig\./);
  });

  it("refuses burned-in captions when ffmpeg has no libass, saying what to install", async () => {
    const bin = join(tempDir("clipcut-no-libass-"), "ffmpeg");
    await writeFile(bin, `#!/bin/sh\ncase "$*" in *-filters*) echo "Filters:"; exit 0 ;; esac\nexec ffmpeg "$@"\n`);
    await chmod(bin, 0o755);
    const error = await refused({ captions: { track: "en", mode: "burn" } }, bin);
    expect(error.code).toBe("missing_libass");
    expect(error.message).toMatch(/Install an FFmpeg built with libass/);
  });
});

describe("the true-cut report of a Shorts clip", () => {
  it("lists the caption tracks, says it is re-encoded for the crop, and how long that takes here", async () => {
    const report = await dryRun(
      {
        source: PAGE,
        ...range(40, 99),
        format: "mp4",
        quality: "1080p",
        watermark: false,
        thumbnails: false,
        aspect: "9:16",
        captions: { track: "en", mode: "burn" },
      },
      { tools: yt.tools, allowPrivateSources: true },
    );
    expect(report.captionTracks).toEqual([
      { lang: "en", name: "English", auto: false },
      { lang: "en-orig", name: "English (Original)", auto: true },
    ]);
    expect(report.libass).toBe(true);
    expect(report.strategy).toBe("reencode");
    expect(report.reason).toBe("re-encoded for the crop and the burned-in captions");
    expect(report.encodeSeconds).toBeGreaterThan(0);
    expect(describeStart(report)).toMatch(
      /^Re-encoded for the crop and the burned-in captions: all 60 frames, about \d+ s\.$/,
    );
  });

  it("refuses a report for a track the video does not have", async () => {
    const asked = { source: PAGE, ...range(40, 99), format: "mp4" as const, quality: "1080p" as const };
    await expect(
      dryRun(
        { ...asked, watermark: false, thumbnails: false, captions: { track: "de", mode: "burn" } },
        { tools: yt.tools, allowPrivateSources: true },
      ),
    ).rejects.toMatchObject({ code: "captions_no_track", status: 400 });
  });
});
