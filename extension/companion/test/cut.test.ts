import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { bestMatch, decodeGray, sourceGray } from "./frames";
import { cut, tempDir } from "./helpers";
import { run } from "./media";
import { outputFacts } from "./probe-helpers";

const dir = inject("mediaDir");
const SRC = join(dir, "src360.mp4");
const FPS = 30;
const FRAME = 1 / FPS;
let source: Buffer[] = [];

beforeAll(async () => {
  source = await sourceGray(SRC);
  expect(source.length).toBe(150 * FPS);
});

/** The output's first and last pictures are the source's frames at start and just before end. */
async function expectFrames(output: string, firstIndex: number, count: number) {
  const out = await decodeGray(output);
  expect(out.length).toBe(count);
  const first = bestMatch(out[0]!, source, firstIndex);
  expect(first.index).toBe(firstIndex);
  expect(first.diff).toBeLessThan(6);
  const last = bestMatch(out[out.length - 1]!, source, firstIndex + count - 1);
  expect(last.index).toBe(firstIndex + count - 1);
}

describe("smart cut (H.264 with B-frames, 2 s GOP)", () => {
  it("starts on the requested frame, holds exactly the requested frames, no hidden lead-in", async () => {
    const result = await cut({ source: SRC, start: 10.5, end: 30.7 });
    expect(result.strategy).toBe("smart");
    expect(result.snapped).toBe(false);
    expect(Math.abs(result.durationSeconds - 20.2)).toBeLessThanOrEqual(FRAME);
    expect(result.startSeconds).toBeCloseTo(10.5, 6);
    const facts = await outputFacts(result.output);
    expect(facts.decodeErrors).toBe("");
    expect(facts.frames).toBe(606);
    expect(facts.framesIgnoringEditList).toBe(606);
    expect(facts.videoCodec).toBe("h264");
    expect(facts.audioCodec).toBe("aac");
    expect(Math.abs(facts.durationSeconds - 20.2)).toBeLessThanOrEqual(FRAME);
    await expectFrames(result.output, 315, 606);
  });

  it("handles a start between frames and a clip inside a single GOP", async () => {
    const result = await cut({ source: SRC, start: 62.21, end: 63.5, strategy: "smart" });
    expect(result.strategy).toBe("smart");
    // 62.21 s shows frame 1866 (62.2 s) until 62.233 s.
    expect(result.startSeconds).toBeCloseTo(62.2, 6);
    const facts = await outputFacts(result.output);
    expect(facts.decodeErrors).toBe("");
    expect(facts.framesIgnoringEditList).toBe(facts.frames);
    await expectFrames(result.output, 1866, 39);
  });

  it("copies the start GOP when start is on a keyframe and re-encodes only the tail", async () => {
    const result = await cut({ source: SRC, start: 40, end: 47.1, strategy: "smart" });
    const facts = await outputFacts(result.output);
    expect(facts.decodeErrors).toBe("");
    expect(facts.framesIgnoringEditList).toBe(213);
    await expectFrames(result.output, 1200, 213);
  });
});

describe("re-encode", () => {
  it("is frame-accurate and scales down", async () => {
    const result = await cut({ source: SRC, start: 45.3, end: 52.1, strategy: "reencode", quality: "240p" });
    expect(result.strategy).toBe("reencode");
    expect(result.height).toBe(240);
    expect(Math.abs(result.durationSeconds - 6.8)).toBeLessThanOrEqual(FRAME);
    const facts = await outputFacts(result.output);
    expect(facts.decodeErrors).toBe("");
    expect(facts.framesIgnoringEditList).toBe(204);
    await expectFrames(result.output, 1359, 204);
  });

  it("never upscales", async () => {
    const result = await cut({ source: SRC, start: 3, end: 4, quality: "1080p" });
    expect(result.height).toBe(360);
    expect(result.strategy).toBe("smart");
  });
});

describe("copy", () => {
  it("is chosen automatically on a keyframe and is exact", async () => {
    const result = await cut({ source: SRC, start: 20, end: 30 });
    expect(result.strategy).toBe("copy");
    expect(result.snapped).toBe(false);
    expect(result.durationSeconds).toBeCloseTo(10, 6);
    const facts = await outputFacts(result.output);
    expect(facts.framesIgnoringEditList).toBe(300);
    await expectFrames(result.output, 600, 300);
  });

  it("reports the snapped start it produced", async () => {
    const result = await cut({ source: SRC, start: 21.3, end: 25, strategy: "copy" });
    expect(result.strategy).toBe("copy");
    expect(result.snapped).toBe(true);
    expect(result.startSeconds).toBe(20);
    const facts = await outputFacts(result.output);
    expect(facts.decodeErrors).toBe("");
    // What it reports is what it holds: no frames hidden behind an edit list.
    expect(facts.framesIgnoringEditList).toBe(result.frames);
    expect(Math.abs(result.durationSeconds - (result.endSeconds - result.startSeconds))).toBeLessThan(1e-6);
    expect(Math.abs(result.endSeconds - 25)).toBeLessThanOrEqual(2 * FRAME);
    await expectFrames(result.output, 600, result.frames!);
  });

  it("copies the audio as well: the source's AAC packets, within one audio frame of the picture at both ends", async () => {
    const result = await cut({ source: SRC, start: 21.3, end: 25, strategy: "copy" });
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-show_entries", "stream=codec_type,codec_name,bit_rate,start_time,duration", "-of", "json"],
      result.output,
    ]);
    const streams = (JSON.parse(stdout.toString()) as { streams: Record<string, string>[] }).streams;
    const v = streams.find((s) => s.codec_type === "video")!;
    const a = streams.find((s) => s.codec_type === "audio")!;
    expect(a.codec_name).toBe("aac");
    // The source's 96 kb/s stream, not a re-encode (which would be 160 kb/s).
    expect(Number(a.bit_rate)).toBeLessThan(120_000);
    const aacFrame = 1024 / 48000;
    expect(Math.abs(Number(a.start_time) - Number(v.start_time))).toBeLessThanOrEqual(aacFrame + 1e-3);
    const aEnd = Number(a.start_time) + Number(a.duration);
    const vEnd = Number(v.start_time) + Number(v.duration);
    expect(Math.abs(aEnd - vEnd)).toBeLessThanOrEqual(aacFrame + 1e-3);
    expect((await outputFacts(result.output)).decodeErrors).toBe("");
  });

  it("auto never snaps unless allowed", async () => {
    const exact = await cut({ source: SRC, start: 21.3, end: 22 });
    expect(exact.strategy).toBe("smart");
    const snapped = await cut({ source: SRC, start: 21.3, end: 22, allowSnap: true });
    expect(snapped.strategy).toBe("copy");
    expect(snapped.startSeconds).toBe(20);
  });
});

describe("outputs", () => {
  const cases = [
    { format: "mkv", video: "h264", audio: "aac" },
    { format: "webm", video: "vp9", audio: "opus" },
    { format: "mov", video: "h264", audio: "aac" },
    { format: "avi", video: "mpeg4", audio: "mp3" },
    { format: "gif", video: "gif", audio: null },
    { format: "mp3", video: null, audio: "mp3" },
    { format: "wav", video: null, audio: "pcm_s16le" },
  ] as const;
  for (const c of cases) {
    it(`${c.format} decodes cleanly with the right streams and length`, async () => {
      const result = await cut({ source: SRC, start: 5.3, end: 9.1, format: c.format });
      expect(result.output.endsWith(`.${c.format}`)).toBe(true);
      const facts = await outputFacts(result.output);
      expect(facts.decodeErrors).toBe("");
      expect(facts.videoCodec).toBe(c.video);
      expect(facts.audioCodec).toBe(c.audio);
      const frameTolerance = c.format === "gif" ? 1 / 15 : c.video === null ? 0.06 : FRAME;
      expect(Math.abs(result.durationSeconds - 3.8)).toBeLessThanOrEqual(frameTolerance + 1e-6);
      if (c.format === "gif") expect(facts.height).toBe(360);
    });
  }

  it("every quality decodes and none is upscaled", async () => {
    const out = tempDir();
    for (const quality of ["144p", "240p", "360p", "720p"] as const) {
      const result = await cut({ source: SRC, start: 1, end: 2, quality, outputDir: out, baseName: quality });
      const facts = await outputFacts(result.output);
      expect(facts.decodeErrors).toBe("");
      expect(facts.height).toBe(Math.min(360, Number.parseInt(quality, 10)));
    }
  });

  it("never overwrites: a second clip with the same name gets a suffix", async () => {
    const out = tempDir();
    const a = await cut({ source: SRC, start: 20, end: 21, outputDir: out, baseName: "same" });
    const b = await cut({ source: SRC, start: 20, end: 21, outputDir: out, baseName: "same" });
    expect(a.output).toBe(join(out, "same.mp4"));
    expect(b.output).toBe(join(out, "same (1).mp4"));
    expect(readdirSync(out).sort()).toEqual(["same (1).mp4", "same.mp4"]);
  });
});
