import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Progress } from "../../../app/domain/companion";
import { cutUrl, expectSameAsSource, pictures } from "./copy-helpers";
import { tempDir } from "./helpers";
import { makeDerived, run, tempBeside } from "./media";
import { startRangeServer, type RangeServer } from "./range-server";

/**
 * WebM/Matroska copies are made from our own reading of the Cues and clusters, the blocks' bytes copied unchanged
 * (mkv-copy.ts): the clip must hold what plain `ffmpeg -ss K -i … -c copy` from the same keyframe holds (frame count,
 * first picture, the same pictures), its sound must start where ffmpeg's demuxer puts the first audio packet of the
 * span (Opus's CodecDelay applied), and the source's stream descriptions must survive. Served over HTTP with ranges.
 */
const dir = inject("mediaDir");
let server: RangeServer;
const VIA = "in-process via byte copy of the Matroska clusters";

const derived: Record<string, string[]> = {
  // 60 s of VP9 + Opus (2 s GOPs), tagged: French sound, BT.709 colour in the Matroska Colour element.
  "vp9-opus-60.webm": [
    ...["-t", "60", "-i", "src360.mp4", "-vf", "scale=320:180", "-c:v", "libvpx-vp9", "-deadline", "realtime"],
    ...["-cpu-used", "8", "-g", "60", "-keyint_min", "60", "-b:v", "300k", "-pix_fmt", "yuv420p"],
    ...["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"],
    ...["-c:a", "libopus", "-b:a", "64k", "-metadata:s:a:0", "language=fra"],
  ],
  // 30 s of lossless VP9 (~5 Mbit/s): a clip larger than the reader's parts in flight.
  "vp9-lossless-30.webm": [
    ...["-t", "30", "-i", "src360.mp4", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"],
    ...["-g", "60", "-keyint_min", "60", "-lossless", "1", "-c:a", "libopus", "-b:a", "64k"],
  ],
};

/** An EBML size vint at `at`: its length and value. */
function sizeAt(b: Buffer, at: number): { length: number; value: number } {
  const length = Math.clz32(b[at]!) - 23;
  let value = b[at]! & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + b[at + i]!;
  return { length, value };
}

/**
 * A copy of `name` whose Cues list every other keyframe: the others' CuePoints become Void elements of the same size
 * (both IDs are one byte). Muxers need not list every keyframe; a clip starting after an unlisted one must start there.
 */
async function withSparseCues(name: string, out: string): Promise<void> {
  const target = join(dir, out);
  if (existsSync(target)) return;
  const b = readFileSync(join(dir, name));
  const cues = b.lastIndexOf(Buffer.from([0x1c, 0x53, 0xbb, 0x6b]));
  const size = sizeAt(b, cues + 4);
  let voided = 0;
  for (let p = cues + 4 + size.length, i = 0; p < cues + 4 + size.length + size.value; i++) {
    expect(b[p]).toBe(0xbb);
    const point = sizeAt(b, p + 1);
    if (i % 2 === 1) {
      b[p] = 0xec;
      voided++;
    }
    p += 1 + point.length + point.value;
  }
  expect(voided).toBeGreaterThan(10);
  const tmp = tempBeside(target, ".webm");
  writeFileSync(tmp, b);
  await rename(tmp, target);
}

beforeAll(async () => {
  await makeDerived(dir, derived);
  await withSparseCues("vp9-opus-60.webm", "vp9-opus-60-sparse-cues.webm");
  server = await startRangeServer(dir);
});
afterAll(() => server.close());

/** The same cut by plain ffmpeg stream copy from the clip's keyframe, for as long as the clip. */
async function plainCopy(o: { name: string; audio?: string; from: number; seconds: number; ext: string }) {
  const out = join(tempDir(), `plain.${o.ext}`);
  // -seek_timestamp: -ss is the stream's own time, not an offset from the file's start (-0.007 s: Opus's delay).
  const at = ["-seek_timestamp", "1", "-ss", o.from.toFixed(6)];
  await run("ffmpeg", [
    ...["-v", "error", ...at, "-i", join(dir, o.name), ...(o.audio ? [...at, "-i", join(dir, o.audio)] : [])],
    ...["-t", o.seconds.toFixed(6), "-c", "copy", out],
  ]);
  return out;
}

/** Presentation times of a file's video keyframes, as ffmpeg's demuxer has them. */
async function keyframeTimes(file: string): Promise<number[]> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", file],
  ]);
  return stdout
    .toString()
    .split("\n")
    .filter((l) => l.includes("K"))
    .map((l) => parseFloat(l));
}

describe("the WebM byte copy against plain ffmpeg -c copy from the same keyframe", () => {
  // `near`: the clip starts on the first keyframe at or after it (`onKey`), or there (between keyframes: snapped).
  const cases = [
    { what: "from the first keyframe, into WebM", name: "vp9-altref.webm", near: 0, onKey: true, format: "webm" },
    { what: "from mid-GOP (snapped), into MKV", name: "vp9-altref.webm", near: 4.5, format: "mkv" },
    { what: "far in, from a keyframe, into MKV", name: "vp9-opus-60.webm", near: 40, onKey: true, format: "mkv" },
    { what: "far in, from mid-GOP (snapped), into WebM", name: "vp9-opus-60.webm", near: 51.3, format: "webm" },
    // The keyframe at 42 s has no cue (the walk starts at 40 s's): the clip's file starts over there.
    {
      what: "after a keyframe the Cues do not list, mid-GOP, into WebM",
      name: "vp9-opus-60-sparse-cues.webm",
      // ffmpeg -ss would start at the listed keyframe before (40 s): compared with the fully indexed file instead.
      plain: "vp9-opus-60.webm",
      near: 42.9,
      format: "webm",
    },
    {
      what: "YouTube's pair (video-only VP9, Opus file), mid-GOP, into WebM",
      name: "vp9-360.webm",
      audio: "opus40.webm",
      near: 6.5,
      format: "webm",
    },
  ] as const;
  for (const c of cases) {
    it(`${c.what}: the same frames, first picture and sound start`, async () => {
      const audio = "audio" in c ? c.audio : undefined;
      const keys = await keyframeTimes(join(dir, c.name));
      const start = "onKey" in c ? keys.find((k) => k >= c.near)! : c.near;
      const keyframe = keys.filter((k) => k <= start + 0.0005).pop()!;
      expect(keyframe === start).toBe("onKey" in c);
      const { result, trace } = await cutUrl(server, { ...c, audio, start, end: start + 3.2 });
      expect(trace).toContain(VIA);
      expect(result.strategy).toBe("copy");
      expect(result.startSeconds).toBeCloseTo(keyframe, 3);
      expect(result.output.endsWith(`.${c.format}`)).toBe(true);
      const plain = await plainCopy({
        ...{ name: "plain" in c ? c.plain : c.name, audio, from: result.startSeconds, ext: c.format },
        seconds: result.endSeconds - result.startSeconds,
      });
      const ours = await pictures(result.output);
      const theirs = await pictures(plain);
      expect(ours.length).toBe(result.frames);
      expect(ours[0]).toBe(theirs[0]);
      expect(ours).toEqual(theirs.slice(0, ours.length));
      expect(Math.abs(theirs.length - ours.length)).toBeLessThanOrEqual(1);
      await expectSameAsSource(result, join(dir, c.name), join(dir, audio ?? c.name));
      // A separate audio file's head is asked for beside the video file's, not after it.
      if (audio) expect(server.seen().findIndex((r) => r.name === audio)).toBeLessThanOrEqual(1);
    });
  }
});

describe("the WebM byte copy reads the clip's clusters, not the file", () => {
  it("from the keyframe's cluster to just past the end, in a few requests", async () => {
    const name = "vp9-opus-60.webm";
    const { result, trace, requests } = await cutUrl(server, { name, start: 30.5, end: 32.3, format: "webm" });
    expect(trace).toContain(VIA);
    const read = server.bytesFor(name);
    const clip = statSync(result.output).size;
    // The clip's blocks, the head (64 KiB) and Cues, and a few frames of the last cluster past the end; reading on
    // to the next cue past the end (38 s here) would be 0.35 MB more.
    expect(read).toBeLessThan(clip * 1.1 + 96 * 1024);
    expect(requests).toBeLessThanOrEqual(8);
  });
});

describe("the WebM byte copy writes the clip as it reads it", () => {
  it("holds a few parts of the source at once, not the clip, and shows its progress while it reads", async () => {
    const name = "vp9-lossless-30.webm";
    // Each progress report, with how much of the source the server had sent by then.
    const seen: { percent: number; sent: number }[] = [];
    const onProgress = (p: Progress) => seen.push({ percent: p.percent, sent: server.bytesFor(name) });
    const { result, trace } = await cutUrl(server, { name, start: 2, end: 29, format: "webm", onProgress });
    expect(trace).toContain(VIA);
    const clip = statSync(result.output).size;
    expect(clip).toBeGreaterThan(15e6);
    // What the reader held at most: its parts in flight (4 of 2 MiB) and the head, whatever the clip's length.
    const held = Number(/at most ([\d.]+) MB held/.exec(trace.join("\n"))?.[1]) * 1e6;
    expect(held).toBeLessThan(10e6);
    const sent = server.bytesFor(name);
    expect(sent).toBeLessThan(clip * 1.1 + 96 * 1024);
    // The walk is the download: progress shows before half of it has arrived, and never goes back.
    expect(seen.some((s) => s.sent < sent / 2)).toBe(true);
    expect(seen.map((s) => s.percent)).toEqual([...seen.map((s) => s.percent)].sort((a, b) => a - b));
    await expectSameAsSource(result, join(dir, name), join(dir, name));
  });
});

describe("a frame-exact VP9 cut (auto, a start inside a GOP) is read about once", () => {
  it("the byte copy stops once the start's frame rules a copy out, and mediabunny's plan is not asked", async () => {
    const name = "vp9-lossless-30.webm";
    const c = { name, start: 2.5, end: 22, format: "webm" as const, strategy: "auto" as const, allowSnap: false };
    const { result, trace } = await cutUrl(server, c);
    // The byte copy's walk learned the rule's choice; mediabunny's copy refuses on it without reading.
    expect(trace).toContain("refused by Matroska byte copy: auto chose smart");
    expect(trace).toContain("refused by mediabunny copy: auto chose smart");
    expect(result.strategy).toBe("smart");
    // The staged smart cut reads the clip; the walk before it read a few small parts. It used to read the whole
    // clip twice more (the byte copy's walk and mediabunny's listing): 3.6 times the clip in all.
    expect(server.bytesFor(name)).toBeLessThan(statSync(result.output).size * 1.5);
  });

  it("on a slow link, the progress the walk showed stays: the smart cut that follows goes on from there", async () => {
    const slow = await startRangeServer(dir, { delayMs: 150 });
    try {
      const shown: number[] = [];
      const c = {
        name: "vp9-lossless-30.webm",
        start: 2.5,
        end: 12,
        format: "webm" as const,
        strategy: "auto" as const,
      };
      const { result } = await cutUrl(slow, {
        ...c,
        allowSnap: false,
        onProgress: (p: Progress) => shown.push(p.percent),
      });
      expect(result.strategy).toBe("smart");
      // The walk to the start's frame showed some progress (several slow round trips); it never goes back.
      expect(shown.some((p) => p > 0 && p < 50)).toBe(true);
      expect(shown).toEqual([...shown].sort((a, b) => a - b));
    } finally {
      await slow.close();
    }
  });
});

describe("the WebM byte copy keeps what the source says about its streams", () => {
  it("codec setup, colour, the sound's language and Opus's pre-skip", async () => {
    const { result, trace } = await cutUrl(server, { name: "vp9-opus-60.webm", start: 20.5, end: 23, format: "webm" });
    expect(trace).toContain(VIA);
    const facts = async (file: string) => {
      const { stdout } = await run("ffprobe", [
        ...["-v", "error", "-show_entries"],
        "stream=codec_name,profile,width,height,pix_fmt,color_primaries,color_transfer,color_space,sample_rate,channels,initial_padding,extradata_size",
        ...["-show_entries", "stream_tags=language", "-of", "json", file],
      ]);
      // The language is a TrackEntry field; ffprobe lists other tags (the source's encoder, DURATION) as none here.
      type Stream = Record<string, unknown> & { tags?: { language?: string } };
      const streams = (JSON.parse(stdout.toString()) as { streams: Stream[] }).streams;
      return streams.map(({ tags, ...rest }) => ({ ...rest, language: tags?.language }));
    };
    const source = await facts(join(dir, "vp9-opus-60.webm"));
    expect(source[1]?.language).toBe("fra");
    expect(JSON.stringify(source)).toContain('"color_primaries":"bt709"');
    expect(await facts(result.output)).toEqual(source);
  });
});

describe("what the WebM byte copy does not take falls back, and the trace says why", () => {
  it("AV1 in WebM is copied by mediabunny", async () => {
    const { result, trace } = await cutUrl(server, { name: "av1-144.webm", start: 2.5, end: 5, format: "webm" });
    expect(trace).toContain("in-process via mediabunny (byte copy not taken: av1 video)");
    expect(result.strategy).toBe("copy");
  });

  it("VP9 into MP4 is written by mediabunny", async () => {
    const { trace } = await cutUrl(server, { name: "vp9-360.webm", start: 4.5, end: 8, format: "mp4" });
    expect(trace).toContain("in-process via mediabunny (byte copy not taken: mp4 output)");
  });
});
