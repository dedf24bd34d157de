import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { probeFromIndex } from "../src/source/index-probe";
import { JobQueue } from "../src/host/jobs";
import { probeMedia, type MediaInfo } from "../src/source/probe";
import { resolveSource, type InputSpec } from "../src/source/source";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir, tools } from "./helpers";
import { makeDerived } from "./media";
import { startRangeServer, type RangeServer } from "./range-server";

/**
 * A copy's source is probed in-process from its container's header (no ffprobe run before the cut): for each
 * container the in-process path reads, what it says must be what ffprobe says, for every field the job and the copy
 * use (container, duration, codecs, picture size, sound format). Sources are served over HTTP with ranges.
 */
const dir = inject("mediaDir");
let server: RangeServer;

const derived: Record<string, string[]> = {
  "probe-frag-sidx.mp4": [
    ...["-i", "src360.mp4", "-c", "copy"],
    ...["-movflags", "frag_keyframe+empty_moov+default_base_moof+global_sidx"],
  ],
  "probe-dash-video.mp4": [
    ...["-i", "src360.mp4", "-map", "0:v", "-c", "copy"],
    ...["-movflags", "frag_keyframe+empty_moov+default_base_moof+global_sidx"],
  ],
  "probe-dash-audio.m4a": [
    ...["-i", "src360.mp4", "-map", "0:a", "-c", "copy", "-frag_duration", "2000000"],
    ...["-movflags", "frag_custom+empty_moov+default_base_moof+global_sidx", "-f", "mp4"],
  ],
  "probe-src360.ts": ["-i", "src360.mp4", "-c", "copy", "-f", "mpegts"],
};

beforeAll(async () => {
  await makeDerived(dir, derived);
  server = await startRangeServer(dir);
});
afterAll(() => server.close());

async function inputOf(name: string, audio?: string): Promise<InputSpec> {
  const input = await resolveSource(tools, server.url(name), { allowPrivate: true });
  return audio ? { ...input, audio: { ...input, url: server.url(audio), audio: undefined } } : input;
}

/** The fields the job (duration, height, streams) and the in-process copy (container, codecs) decide on. */
const used = (info: MediaInfo) => ({
  formatName: info.formatName,
  video: info.video && { codec: info.video.codec, width: info.video.width, height: info.video.height },
  audio: info.audio && {
    codec: info.audio.codec,
    sampleRate: info.audio.sampleRate,
    channels: info.audio.channels,
  },
});

describe("the in-process probe describes a source as ffprobe does", () => {
  const cases = [
    { title: "faststart MP4", name: "src360.mp4" },
    { title: "fragmented MP4 with a sidx", name: "probe-frag-sidx.mp4" },
    { title: "a DASH pair of fragmented MP4 with sidx", name: "probe-dash-video.mp4", audio: "probe-dash-audio.m4a" },
    { title: "VP9 and Opus in WebM", name: "vp9-altref.webm" },
    { title: "a VP9 WebM and an Opus WebM", name: "vp9-360.webm", audio: "opus40.webm" },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      const input = await inputOf(c.name, c.audio);
      const ours = await probeFromIndex(input);
      const theirs = await probeMedia(tools.ffprobe, input);
      expect(ours).not.toBeNull();
      expect(ours!.fromIndex).toBe(true);
      expect(used(ours!)).toEqual(used(theirs));
      expect(Math.abs(ours!.durationSeconds - theirs.durationSeconds)).toBeLessThan(0.002);
      // MP4's frame rate comes from the sample tables; WebM's is not read (only the ffmpeg plans use it).
      if (!c.name.endsWith(".webm")) expect(ours!.video!.frameRate).toBeCloseTo(theirs.video!.frameRate, 2);
    });
  }

  it("leaves MPEG-TS to ffprobe", async () => {
    expect(await probeFromIndex(await inputOf("probe-src360.ts"))).toBeNull();
  });
});

describe("a copy job through the queue", () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi([{ token: "tok-index-probe-1", plan: "Pro", balance: 1000 }]);
  });
  afterAll(() => api.close());

  it("is probed and cut without running ffprobe; the ffmpeg path still probes with it", async () => {
    // No ffprobe at all: the copy must not need it.
    const queue = new JobQueue({
      tools: { ...tools, ffprobe: "/nonexistent/ffprobe" },
      outputDir: tempDir(),
      concurrency: 1,
      session: () => ({ apiToken: "tok-index-probe-1", apiBaseUrl: api.baseUrl }),
      allowPrivateSources: true,
    });
    const copy = queue.submit({
      source: server.url("src360.mp4"),
      ...{ startSeconds: 10.5, endSeconds: 13, strategy: "copy", allowSnap: true, format: "mp4" },
    });
    // MPEG-TS goes to ffmpeg, whose plans need ffprobe: without one it fails.
    const ts = queue.submit({
      source: server.url("probe-src360.ts"),
      ...{ startSeconds: 10.5, endSeconds: 13, strategy: "copy", allowSnap: true, format: "mp4" },
    });
    await queue.idle();
    expect(queue.get(copy.id)?.error ?? null).toBeNull();
    expect(queue.get(copy.id)).toMatchObject({ status: "done", result: { strategy: "copy", height: 360 } });
    expect(queue.get(ts.id)?.status).toBe("failed");
  });
});
