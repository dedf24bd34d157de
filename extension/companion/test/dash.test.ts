import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bestMatch, decodeGray, sourceGray } from "./frames";
import { cut } from "./helpers";
import { run } from "./media";
import { outputFacts } from "./probe-helpers";
import { startRangeServer, type RangeServer } from "./range-server";
import { formatSelector } from "../src/source/ytdlp";
import { fakeYtDlp, youtubeFormats } from "./ytdlp-fixture";

const dir = inject("mediaDir");
const PAGE = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const FPS = 30;
let server: RangeServer;
let source: Buffer[] = [];

beforeAll(async () => {
  server = await startRangeServer(dir);
  source = await sourceGray(join(dir, "dash1080-video.mp4"));
});
afterAll(() => server.close());

async function streamFacts(file: string) {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_entries",
    "stream=codec_type,start_time,duration",
    "-of",
    "json",
    file,
  ]);
  const streams = (
    JSON.parse(stdout.toString()) as { streams: { codec_type: string; start_time: string; duration: string }[] }
  ).streams;
  const v = streams.find((s) => s.codec_type === "video")!;
  const a = streams.find((s) => s.codec_type === "audio")!;
  return {
    vStart: Number(v.start_time),
    vDur: Number(v.duration),
    aStart: Number(a.start_time),
    aDur: Number(a.duration),
  };
}

/** Mono 48 kHz samples of a file's audio from `from` seconds, `seconds` long. */
async function pcm(file: string, from: number, seconds: number): Promise<Int16Array> {
  const { stdout } = await run("ffmpeg", [
    "-v",
    "error",
    "-i",
    file,
    "-af",
    `atrim=start=${from}:duration=${seconds},aresample=48000`,
    "-ac",
    "1",
    "-f",
    "s16le",
    "pipe:1",
  ]);
  return new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
}

/** The lag (seconds) of `clip` against `reference` that lines their waveforms up best, searched ±range. */
function bestLag(clip: Int16Array, reference: Int16Array, center: number, range: number): number {
  let best = { lag: 0, err: Infinity };
  const n = 12_000; // 0.25 s compared
  for (let lag = -range; lag <= range; lag += 8) {
    let err = 0;
    for (let i = 0; i < n; i += 4) err += Math.abs((clip[i] ?? 0) - (reference[center + lag + i] ?? 0));
    if (err < best.err) best = { lag, err };
  }
  return best.lag / 48000;
}

describe("YouTube DASH: separate video-only and audio-only streams through yt-dlp", () => {
  it("asks for ≤1080p H.264 + M4A, cuts both streams through the range proxy with their own headers, frame-exact", async () => {
    const yt = fakeYtDlp({ id: "dQw4w9WgXcQ", title: "Dash demo", duration: 40, formats: youtubeFormats(server.url) });
    server.reset();
    const start = 10.5;
    const end = 18.5;
    const result = await cut({ source: PAGE, start, end, height: 1080 }, { tools: yt.tools });

    const selector = yt.calls().find((c) => c.includes("-J"))!;
    expect(selector[selector.indexOf("-f") + 1]).toBe(formatSelector(1080));
    expect(formatSelector(1080)).toMatch(/^bv\*\[height<=1080\]\S*\[vcodec\^=avc1\]\+ba\S*\[ext=m4a\]\//);
    expect(result.strategy).toBe("smart");
    expect(result.sourceHeight).toBe(1080);
    expect(result.startSeconds).toBeCloseTo(start, 6);

    // Each stream went through its bounded ranges with its own headers, reading near the floor.
    const seen = server.seen();
    const video = seen.filter((r) => r.name === "dash1080-video.mp4");
    const audio = seen.filter((r) => r.name === "dash1080-audio.m4a");
    expect(video.length).toBeGreaterThan(0);
    expect(audio.length).toBeGreaterThan(0);
    expect(video.every((r) => r.headers["x-stream"] === "video" && r.headers["user-agent"]?.includes("Chrome"))).toBe(
      true,
    );
    expect(audio.every((r) => r.headers["x-stream"] === "audio")).toBe(true);
    expect(seen.some((r) => r.name === "src360.mp4")).toBe(false);
    // Near the floor for each stream: the clip plus up to one GOP before and a second after, plus the header and
    // one read-ahead (loopback socket buffers) per request — as for a progressive file (see http.test.ts).
    const budget = (file: string) => (statSync(join(dir, file)).size / 40) * (end - start + 3) + 2_500_000;
    const videoRead = server.bytesFor("dash1080-video.mp4");
    expect(videoRead).toBeGreaterThan((statSync(join(dir, "dash1080-video.mp4")).size / 40) * (end - start) * 0.8);
    expect(videoRead).toBeLessThan(budget("dash1080-video.mp4"));
    expect(server.bytesFor("dash1080-audio.m4a")).toBeLessThan(budget("dash1080-audio.m4a"));

    const facts = await outputFacts(result.output);
    expect(facts.decodeErrors).toBe("");
    expect(facts.videoCodec).toBe("h264");
    expect(facts.audioCodec).toBe("aac");
    expect(facts.height).toBe(1080);
    expect(facts.framesIgnoringEditList).toBe((end - start) * FPS);
    const out = await decodeGray(result.output);
    const first = Math.round(start * FPS);
    expect(bestMatch(out[0]!, source, first).index).toBe(first);
    expect(bestMatch(out[out.length - 1]!, source, first + out.length - 1).index).toBe(first + out.length - 1);

    // Audio: as long as the video within one AAC frame, starting with it, and the same sound as at `start`.
    const s = await streamFacts(result.output);
    expect(Math.abs(s.aDur - s.vDur)).toBeLessThanOrEqual(1024 / 48000 + 1e-3);
    expect(Math.abs(s.aStart - s.vStart)).toBeLessThan(1 / FPS);
    // The window spans the source's beep at 11 s, so only the true alignment matches (a plain sine would not tell).
    const clipAudio = await pcm(result.output, 0.4, 0.3);
    const reference = await pcm(join(dir, "dash1080-audio.m4a"), start + 0.3, 0.5);
    const lag = bestLag(clipAudio, reference, 4800, 2400);
    expect(Math.abs(lag)).toBeLessThan(1 / FPS);
  });

  it("never upscales: asking 4K of a 1080p video uses the tallest stream and says so", async () => {
    const yt = fakeYtDlp({ id: "dQw4w9WgXcQ", title: "Dash demo", duration: 40, formats: youtubeFormats(server.url) });
    const result = await cut({ source: PAGE, start: 20, end: 21, height: 2160, quality: "2160p" }, { tools: yt.tools });
    const selector = yt.calls().find((c) => c.includes("-J"))!;
    expect(selector[selector.indexOf("-f") + 1]).toBe(formatSelector(2160));
    expect(result.height).toBe(1080);
    expect(result.sourceHeight).toBe(1080);
    expect(result.notes?.join(" ")).toMatch(/at most 1080p.*never upscales/);
  });

  it("a progressive-only answer (format 18, one url) still cuts", async () => {
    const formats = youtubeFormats(server.url).filter((f) => f.format_id === "18");
    const yt = fakeYtDlp({ id: "abc", title: "Old", duration: 150, formats });
    const result = await cut({ source: PAGE, start: 20, end: 22, height: 720 }, { tools: yt.tools });
    expect(result.strategy).toBe("copy");
    expect(result.height).toBe(360);
    const facts = await outputFacts(result.output);
    expect(facts.audioCodec).toBe("aac");
    expect(facts.framesIgnoringEditList).toBe(60);
  });

  it("every output works as for one file: MP3 from the audio stream only, MKV by stream copy", async () => {
    const yt = fakeYtDlp({ id: "dQw4w9WgXcQ", title: "Dash demo", duration: 40, formats: youtubeFormats(server.url) });
    server.reset();
    const mp3 = await cut({ source: PAGE, start: 12.25, end: 14.25, format: "mp3" }, { tools: yt.tools });
    expect(mp3.strategy).toBe("reencode");
    expect(Math.abs(mp3.durationSeconds - 2)).toBeLessThan(0.06);
    // An audio clip never downloads the picture: only the video header is probed (one bounded answer, ≤ 1 MB);
    // staging the picture too would add ~1.2 MB (12 s → 15.25 s at 3 Mb/s).
    expect(server.bytesFor("dash1080-video.mp4")).toBeLessThan(1_500_000);
    const mkv = await cut({ source: PAGE, start: 20, end: 22, format: "mkv", height: 1080 }, { tools: yt.tools });
    expect(mkv.strategy).toBe("copy");
    const facts = await outputFacts(mkv.output);
    expect(facts.decodeErrors).toBe("");
    expect(facts.videoCodec).toBe("h264");
    expect(facts.audioCodec).toBe("aac");
    expect(facts.frames).toBe(60);
  });
});
