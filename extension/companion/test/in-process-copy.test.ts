import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Progress } from "../../../app/domain/companion";
import { cutClip } from "../src/paths/cut";
import { checkClipStarts } from "../src/check/written-clip";
import { boxes } from "../src/containers/mp4-boxes";
import { isPrivateAddress, type Guard } from "../src/source/net-guard";
import { probeMedia } from "../src/source/probe";
import { resolveSource } from "../src/source/source";
import { cutUrl, expectSameAsSource, packetTimes, pictures } from "./copy-helpers";
import { tempDir, tools } from "./helpers";
import { makeDerived, run } from "./media";
import { startRangeServer, type RangeServer } from "./range-server";

/**
 * Copies are cut in this process from the container's own index (no staging run): for each container the clip
 * must hold the source's frames from the planned keyframe (same count, same decoded pictures) and its sound must
 * start where ffmpeg's demuxer puts the first audio packet of that span. Sources are served over HTTP with ranges.
 */
const dir = inject("mediaDir");
let server: RangeServer;

/** Derived sources (stream copies of the generated ones, so they are quick to make). */
const derived: Record<string, string[]> = {
  // moov at the end (no faststart): the reader walks the box headers to find it.
  "moov-last.mp4": ["-i", "src360.mp4", "-c", "copy"],
  "frag-sidx.mp4": [
    "-i",
    "src360.mp4",
    "-c",
    "copy",
    "-movflags",
    "frag_keyframe+empty_moov+default_base_moof+global_sidx",
  ],
  "frag-plain.mp4": ["-i", "src360.mp4", "-c", "copy", "-movflags", "frag_keyframe+empty_moov+default_base_moof"],
  // 30 s of lossless H.264 (~5 Mbit/s), fragmented with a sidx: a clip whose fragments take several reads.
  "frag-lossless.mp4": [
    ...["-t", "30", "-i", "src360.mp4", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-g", "60"],
    ...["-c:a", "copy", "-movflags", "frag_keyframe+empty_moov+default_base_moof+global_sidx"],
  ],
  // YouTube's DASH pair: video-only and audio-only fragmented MP4, each with a sidx after its moov.
  "dash-video.mp4": [
    "-i",
    "src360.mp4",
    "-map",
    "0:v",
    "-c",
    "copy",
    "-movflags",
    "frag_keyframe+empty_moov+default_base_moof+global_sidx",
  ],
  "dash-audio.m4a": [
    "-i",
    "src360.mp4",
    "-map",
    "0:a",
    "-c",
    "copy",
    "-frag_duration",
    "2000000",
    "-movflags",
    "frag_custom+empty_moov+default_base_moof+global_sidx",
    "-f",
    "mp4",
  ],
  "src360.ts": ["-i", "src360.mp4", "-c", "copy", "-f", "mpegts"],
  // HEVC with B-frames (closed GOPs: IDR keyframes) and the AAC of the source.
  "hevc.mp4": [
    ...["-t", "20", "-i", "src360.mp4", "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1"],
    ...["-x265-params", "log-level=error:keyint=60:bframes=3:open-gop=0", "-c:a", "copy"],
  ],
  // An edit list of its own besides the B-frame delay: a copy that started between keyframes hides the frames
  // before its start (and the AAC priming) behind it.
  "edited.mp4": ["-ss", "3.3", "-i", "src360.mp4", "-c", "copy"],
  // Shown turned a quarter, French sound, BT.709 colour in the H.264 headers.
  "tagged.mp4": [
    ...["-i", "src360.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", "-metadata:s:a:0", "language=fra"],
    ...["-bsf:v", "h264_metadata=colour_primaries=1:transfer_characteristics=1:matrix_coefficients=1"],
  ],
};

beforeAll(async () => {
  await makeDerived(dir, derived);
  server = await startRangeServer(dir);
});
afterAll(() => server.close());

/** The trace's name for the mediabunny copy (direct-copy.ts), the path progressive MP4 sources take. */
const MEDIABUNNY = "mediabunny (byte copy not taken: no sidx (a progressive MP4, or fragments without an index))";
/** The byte copy of fragmented MP4 with a sidx (mp4-copy.ts: a DASH stream). */
const FRAGMENTS_COPY = "byte copy of the fragments' tables";

describe("copies cut in-process from the container's index", () => {
  const cases = [
    {
      title: "faststart MP4 (H.264 B-frames with an edit list, AAC with priming)",
      name: "src360.mp4",
      start: 10.5,
      end: 14,
    },
    { title: "MP4 with the moov at the end", name: "moov-last.mp4", start: 100.5, end: 103 },
    { title: "MP4 with an edit list that hides frames, and B-frames", name: "edited.mp4", start: 30.5, end: 33 },
    { title: "fragmented MP4 with a sidx", name: "frag-sidx.mp4", start: 120.5, end: 124, via: FRAGMENTS_COPY },
    { title: "fragmented MP4 without a sidx", name: "frag-plain.mp4", start: 30.5, end: 33, via: MEDIABUNNY },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      const { result, trace } = await cutUrl(server, c);
      expect(trace).toContain("copy (in-process)");
      expect(trace.some((n) => n.startsWith(`in-process via ${c.via ?? MEDIABUNNY}`))).toBe(true);
      expect(trace.some((n) => n.startsWith("stage"))).toBe(false);
      expect(result.strategy).toBe("copy");
      expect(result.startSeconds).toBeLessThanOrEqual(c.start);
      const src = join(dir, c.name);
      await expectSameAsSource(result, src, src);
    });
  }

  it("a DASH pair (video and audio fragmented MP4 with sidx) reads only the clip's fragments", async () => {
    const { result, trace, requests } = await cutUrl(server, {
      name: "dash-video.mp4",
      audio: "dash-audio.m4a",
      start: 130.5,
      end: 140,
    });
    expect(trace).toContain("copy (in-process)");
    expect(trace).toContain(`in-process via ${FRAGMENTS_COPY}`);
    // mediabunny alone walks every moof from the start (60+ dependent requests to reach 130 s).
    expect(requests).toBeLessThanOrEqual(20);
    // The audio file's head is asked for beside the video file's, not after it.
    expect(server.seen().findIndex((r) => r.name === "dash-audio.m4a")).toBeLessThanOrEqual(1);
    await expectSameAsSource(result, join(dir, "dash-video.mp4"), join(dir, "dash-audio.m4a"));
  });

  it("a fragmented MP4's clip is written as its fragments are read: progress all along, a few parts held", async () => {
    const name = "frag-lossless.mp4";
    const seen: { percent: number; sent: number }[] = [];
    const onProgress = (p: Progress) => seen.push({ percent: p.percent, sent: server.bytesFor(name) });
    const { result, trace } = await cutUrl(server, { name, start: 2, end: 29, onProgress });
    expect(trace).toContain(`in-process via ${FRAGMENTS_COPY}`);
    const sent = server.bytesFor(name);
    expect(sent).toBeGreaterThan(15e6);
    expect(seen.some((s) => s.sent < sent / 2)).toBe(true);
    expect(seen.map((s) => s.percent)).toEqual([...seen.map((s) => s.percent)].sort((a, b) => a - b));
    expect(result.frames).toBeGreaterThan(800);
    // What the reader held at most: its parts in flight and the samples near the end, not the clip.
    const size = statSync(result.output).size;
    expect(size).toBeGreaterThan(15e6);
    // Each byte is fetched once: the span is the clip, its first fragment's frames before the keyframe and the margin.
    expect(sent).toBeLessThan(size * 1.1);
    const held = Number(/at most ([\d.]+) MB held/.exec(trace.join("\n"))?.[1]) * 1e6;
    expect(held).toBeLessThan(10e6);
    // The moov was kept room for: the clip starts fast.
    const top = [...boxes(new Uint8Array(readFileSync(result.output)))].map((b) => b.type);
    expect(top).toEqual(["ftyp", "moov", "free", "mdat"]);
    const src = join(dir, name);
    await expectSameAsSource(result, src, src);
  });

  it("a DASH copy not taken after its walk (auto chose a smart cut) leaves only the clip in the folder", async () => {
    // The start is a keyframe (60.0667 s), so the walk reads the clip; its end is not where a copy can stop.
    const { result, trace } = await cutUrl(server, {
      ...{ name: "dash-video.mp4", audio: "dash-audio.m4a", start: 60.066667, end: 61.55 },
      ...{ strategy: "auto" as const, allowSnap: false },
    });
    expect(trace).toContain("ffmpeg path: auto chose smart");
    expect(result.strategy).toBe("smart");
    // The byte copy's file, written during the walk, is removed: no hidden part file is left behind.
    expect(readdirSync(dirname(result.output))).toEqual([basename(result.output)]);
  });

  it("a start a hair before a fragment's keyframe is that keyframe: auto copies it, frame-exact", async () => {
    // The keyframe shows at 60.0667 s; within the 1 ms the start rule allows, it is the start's frame.
    const { result, trace } = await cutUrl(server, {
      ...{ name: "dash-video.mp4", audio: "dash-audio.m4a", start: 60.0664, end: 61.6 },
      ...{ strategy: "auto" as const, allowSnap: false },
    });
    expect(trace).toContain(`in-process via ${FRAGMENTS_COPY}`);
    expect(result.strategy).toBe("copy");
    expect(result.snapped).toBe(false);
  });

  it("a start between a fragment's sidx time and its first picture is shown by the fragment before", async () => {
    // dash-video.mp4's sidx gives 60 s (a decode time) for a fragment whose keyframe shows at 60.0667 s: at 60.05 s
    // the picture on screen is the one before it (60.0333 s), so the copy starts on the keyframe before that.
    const { result, trace } = await cutUrl(server, {
      ...{ name: "dash-video.mp4", audio: "dash-audio.m4a", start: 60.05, end: 62.5 },
    });
    expect(trace).toContain(`in-process via ${FRAGMENTS_COPY}`);
    expect(result.startSeconds).toBeLessThanOrEqual(60.05);
    expect(result.startSeconds).toBeCloseTo(58.0667, 3);
    await expectSameAsSource(result, join(dir, "dash-video.mp4"), join(dir, "dash-audio.m4a"));
    // Frame-exact (auto, no snap: the staged smart cut): the clip starts on that picture.
    const exact = await cutUrl(server, {
      ...{ name: "dash-video.mp4", audio: "dash-audio.m4a", start: 60.05, end: 62.5 },
      ...{ strategy: "auto" as const, allowSnap: false },
    });
    expect(exact.result.strategy).toBe("smart");
    expect(exact.result.startSeconds).toBeCloseTo(60.0333, 3);
  });

  it("a frame-exact cut (auto, a start inside a GOP) of a fragmented MP4 reads its span about once", async () => {
    const name = "frag-lossless.mp4";
    const { result, trace } = await cutUrl(server, { name, start: 2.5, end: 22, strategy: "auto", allowSnap: false });
    expect(trace).toContain("ffmpeg path: auto chose smart");
    // The byte copy stops at its first fragment, whose start frame rules a copy out (it used to read the whole clip:
    // 2.4 times the clip in all, with the smart cut's own read); the stage then reads from the keyframe before the
    // start to a second past the end (1.63 times the clip, whose re-encoded head is smaller than the source's).
    expect(server.bytesFor(name)).toBeLessThan(statSync(result.output).size * 1.8);
    expect(result.strategy).toBe("smart");
    expect(Math.abs(result.startSeconds - 2.5)).toBeLessThan(1 / 30);
  });

  it("VP9 with alt-ref frames and Opus in WebM", async () => {
    const { result, trace } = await cutUrl(server, { name: "vp9-altref.webm", start: 4.5, end: 8, format: "webm" });
    expect(trace).toContain("copy (in-process)");
    expect(trace).toContain("in-process via byte copy of the Matroska clusters");
    const src = join(dir, "vp9-altref.webm");
    await expectSameAsSource(result, src, src);
  });

  it("YouTube's VP9 pair: a video-only VP9 WebM and an Opus WebM", async () => {
    const { result, trace } = await cutUrl(server, {
      ...{ name: "vp9-360.webm", audio: "opus40.webm", start: 6.5, end: 9, format: "webm" as const },
    });
    expect(trace).toContain("copy (in-process)");
    await expectSameAsSource(result, join(dir, "vp9-360.webm"), join(dir, "opus40.webm"));
  });

  it("MPEG-TS is cut by the ffmpeg path, and the trace says why", async () => {
    const { result, trace } = await cutUrl(server, { name: "src360.ts", start: 10.5, end: 13 });
    expect(trace).toContain("ffmpeg path: the mpegts container is read by ffmpeg");
    expect(trace).toContain("stage");
    expect(result.strategy).toBe("copy");
  });
});

describe("the in-process MP4 copies against plain ffmpeg -c copy from the same keyframe", () => {
  const sources = [
    { name: "src360.mp4", via: MEDIABUNNY },
    { name: "moov-last.mp4", via: MEDIABUNNY },
    { name: "edited.mp4", via: MEDIABUNNY },
    { name: "frag-sidx.mp4", via: FRAGMENTS_COPY },
    { name: "dash-video.mp4", audio: "dash-audio.m4a", via: FRAGMENTS_COPY },
    { name: "hevc.mp4", via: MEDIABUNNY, start: 5.5, end: 12 },
  ];
  for (const { name, audio, via, start, end } of sources) {
    it(`${name}${audio ? ` with ${audio}` : ""}: the same frames, first picture and sound start`, async () => {
      const { result, trace } = await cutUrl(server, { name, audio, start: start ?? 60.5, end: end ?? 70.5 });
      expect(trace).toContain(`in-process via ${via}`);
      const plain = join(tempDir(), "plain.mp4");
      const at = ["-seek_timestamp", "1", "-ss", result.startSeconds.toFixed(6)];
      await run("ffmpeg", [
        ...["-v", "error", ...at, "-i", join(dir, name), ...(audio ? [...at, "-i", join(dir, audio)] : [])],
        ...["-t", (result.endSeconds - result.startSeconds).toFixed(6), "-c", "copy", plain],
      ]);
      const ours = await pictures(result.output);
      const theirs = await pictures(plain);
      expect(ours.length).toBe(result.frames);
      expect(ours[0]).toBe(theirs[0]);
      // ffmpeg's -t keeps the packets decoded before the end, up to a B-frame group more than the plan's closed
      // prefix nearest the end (the existing copy rule): the same pictures, then at most that many more.
      expect(ours).toEqual(theirs.slice(0, ours.length));
      expect(theirs.length - ours.length).toBeGreaterThanOrEqual(0);
      expect(theirs.length - ours.length).toBeLessThanOrEqual(3);
      // The sound: plain ffmpeg keeps the audio from its seek point before the picture (hidden by its edit list);
      // the copy rule starts it at the first packet at or after the keyframe, where the source's demuxer has it.
      await expectSameAsSource(result, join(dir, name), join(dir, audio ?? name));
    });
  }
});

describe("the in-process MP4 copy starts on mediabunny's verified keyframe", () => {
  it("an x264 open-GOP keyframe (a recovery point SEI, not an IDR picture) is a start, as for mediabunny", async () => {
    const name = "opengop-copy.mp4";
    if (!existsSync(join(dir, name))) {
      const tmp = join(dir, `${name}.tmp.mp4`);
      await run("ffmpeg", [
        ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "12"],
        ...["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2"],
        ...["-x264-params", "open-gop=1:keyint=60:min-keyint=60:scenecut=0", "-pix_fmt", "yuv420p", tmp],
      ]);
      await run("mv", [tmp, join(dir, name)]);
    }
    const { result, trace } = await cutUrl(server, { name, start: 4.5, end: 6 });
    expect(trace).toContain(`in-process via ${MEDIABUNNY}`);
    expect(result.strategy).toBe("copy");
    // The keyframe at 4 s is the I picture after the recovery point, as mediabunny's path chose it.
    expect(result.startSeconds).toBe(4);
  });
});

describe("the in-process MP4 copy into MOV", () => {
  it("writes a QuickTime file with the source's pictures and sound placement", async () => {
    const { result, trace } = await cutUrl(server, { name: "src360.mp4", start: 50.5, end: 54, format: "mov" });
    expect(trace).toContain(`in-process via ${MEDIABUNNY}`);
    expect(result.output.endsWith(".mov")).toBe(true);
    const { stdout } = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=format_name",
      "-of",
      "csv=p=0",
      result.output,
    ]);
    expect(stdout.toString()).toContain("mov");
    const src = join(dir, "src360.mp4");
    await expectSameAsSource(result, src, src);
  });
});

describe("the in-process reader keeps the guard", () => {
  let victim: Server;
  let victimHits = 0;
  let redirector: Server;
  beforeAll(async () => {
    victim = createServer((_req, res) => (victimHits++, res.writeHead(200).end("router")));
    await new Promise<void>((resolve) => victim.listen(0, "127.0.0.2", resolve));
    const to = `http://127.0.0.2:${(victim.address() as AddressInfo).port}/admin`;
    redirector = createServer((_req, res) => res.writeHead(302, { Location: to }).end());
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const s of [victim, redirector]) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it("a source that redirects to a private address is refused, and nothing reaches that address", async () => {
    // 127.0.0.1 plays the internet, 127.0.0.2 the user's network (as in ssrf.test.ts).
    const guard: Guard = { allowPrivate: false, isPrivate: (a) => a !== "127.0.0.1" && isPrivateAddress(a) };
    const good = await resolveSource(tools, server.url("src360.mp4"), { guard });
    const info = await probeMedia(tools.ffprobe, good);
    // The probe saw the media; the cut's own read is redirected.
    const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/src360.mp4`;
    const cut = cutClip(
      {
        input: { ...good, url },
        info,
        ...{ startSeconds: 10, endSeconds: 12, format: "mp4", quality: null, strategy: "copy", allowSnap: true },
        ...{ watermark: false, outputDir: tempDir(), baseName: "clip" },
      },
      { tools },
    );
    await expect(cut).rejects.toMatchObject({ code: "source_not_allowed" });
    expect(victimHits).toBe(0);
  });
});

describe("the in-process copy keeps what the source says about its streams", () => {
  it("rotation, the sound's language and the colour description", async () => {
    const { result, trace } = await cutUrl(server, { name: "tagged.mp4", start: 40.5, end: 43 });
    expect(trace).toContain(`in-process via ${MEDIABUNNY}`);
    const facts = async (file: string) => {
      const { stdout } = await run("ffprobe", [
        ...["-v", "error", "-show_entries", "stream=codec_type,color_primaries,color_transfer,color_space"],
        ...["-show_entries", "stream_tags=language:stream_side_data=rotation", "-of", "json", file],
      ]);
      type Stream = {
        codec_type: string;
        color_primaries?: string;
        color_transfer?: string;
        color_space?: string;
        tags?: { language?: string };
        side_data_list?: { rotation?: number }[];
      };
      const streams = (JSON.parse(stdout.toString()) as { streams: Stream[] }).streams;
      const v = streams.find((x) => x.codec_type === "video")!;
      const a = streams.find((x) => x.codec_type === "audio")!;
      return {
        rotation: v.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0,
        colour: [v.color_primaries, v.color_transfer, v.color_space],
        language: a.tags?.language,
      };
    };
    const source = await facts(join(dir, "tagged.mp4"));
    expect(source.rotation).not.toBe(0);
    expect(source.language).toBe("fra");
    expect(source.colour).toEqual(["bt709", "bt709", "bt709"]);
    expect(await facts(result.output)).toEqual(source);
  });
});

describe("the in-process copy's own check refuses a clip that does not start as planned", () => {
  it("accepts the clip as written, refuses another first keyframe or sound moved by more than an audio frame", async () => {
    const { result } = await cutUrl(server, { name: "src360.mp4", start: 20.5, end: 23 });
    const firstVideo = async (file: string) => {
      const { stdout } = await run("ffprobe", [
        ...["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0"],
        ...["-read_intervals", "%+#1", file],
      ]);
      return Number(stdout.toString().trim().split("\n")[0]);
    };
    const audioStart = (await packetTimes(result.output, "a")).sort((a, b) => a - b)[0]!;
    const keyBytes = await firstVideo(result.output);
    await expect(checkClipStarts(result.output, { keyBytes, audioStart })).resolves.toBeUndefined();
    // The sound 50 ms late (more than one 21 ms AAC frame).
    const late = join(tempDir(), "late.mp4");
    await run("ffmpeg", [
      ...["-v", "error", "-i", result.output, "-itsoffset", "0.05", "-i", result.output],
      ...["-map", "0:v", "-map", "1:a", "-c", "copy", late],
    ]);
    await expect(checkClipStarts(late, { keyBytes, audioStart })).rejects.toMatchObject({ code: "verify_failed" });
    // Another keyframe first (the clip from 2 s later).
    const other = join(tempDir(), "other.mp4");
    await run("ffmpeg", ["-v", "error", "-ss", "2", "-i", result.output, "-c", "copy", other]);
    expect(await firstVideo(other)).not.toBe(keyBytes);
    await expect(checkClipStarts(other, { keyBytes, audioStart: null })).rejects.toMatchObject({
      code: "verify_failed",
    });
  });
});
