import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { boxes } from "../src/containers/mp4-boxes";
import { Mp4ClipFile } from "../src/containers/mp4-clip-file";
import { readMovie } from "../src/containers/mp4-tables";
import { clipFtyp, clipMoov, type ClipTrack } from "../src/containers/mp4-write";
import { openRangeReader } from "../src/source/range-reader";
import { packetTimes } from "./copy-helpers";
import { tempDir } from "./helpers";

/**
 * The fragmented byte copy's moov (mp4-write.ts) read back by our own table reader: the clip's tables list exactly the
 * chosen source samples (sizes, decode-time gaps, composition offsets, sync flags) at the offsets they were written
 * to, with 64-bit chunk offsets once the file passes 4 GiB. The source is a generated MP4 (x264 B-frames, AAC).
 */
const dir = inject("mediaDir");

function sourceMovie() {
  const file = readFileSync(join(dir, "src360.mp4"));
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const moov = [...boxes(bytes)].find((b) => b.type === "moov")!;
  return readMovie(bytes.subarray(moov.start, moov.end));
}

/** A 3 s clip of the source: 90 pictures from a keyframe (60), 140 AAC frames. */
function clipTracks(): ClipTrack[] {
  const movie = sourceMovie();
  const video = movie.tracks.find((t) => t.handler === "vide")!;
  const audio = movie.tracks.find((t) => t.handler === "soun")!;
  return [
    { track: video, from: 60, count: 90, edits: [{ segmentDuration: 3000, mediaTime: 1024, rate: 0x10000 }] },
    { track: audio, from: 94, count: 140, edits: [{ segmentDuration: 2990, mediaTime: 0, rate: 0x10000 }] },
  ];
}

function roundTrip(payloadBase: number) {
  const tracks = clipTracks();
  // Every source byte lands `payloadBase` bytes later than its offset (a stand-in for a long file's mdat).
  const moov = clipMoov(tracks, (_t, o) => payloadBase + o, payloadBase + 20_000_000 > 0xffffffff);
  const top = [...boxes(moov)];
  expect(top.map((b) => b.type)).toEqual(["moov"]);
  return { moov, tracks, clip: readMovie(moov.subarray(top[0]!.start, top[0]!.end)) };
}

describe("the byte copy's moov", () => {
  for (const [title, base] of [
    ["under 4 GiB: 32-bit chunk offsets", 0],
    ["past 4 GiB: 64-bit chunk offsets", 5 * 2 ** 30],
  ] as const) {
    it(`lists exactly the chosen samples where the mdat holds them, ${title}`, () => {
      const { moov, tracks, clip } = roundTrip(base);
      const stco = (type: string) => Buffer.from(moov).includes(type);
      expect(stco("co64")).toBe(base > 0);
      expect(stco("stco")).toBe(base === 0);
      tracks.forEach((t, i) => {
        const got = clip.tracks[i]!;
        const want = t.track.samples;
        expect(got.handler).toBe(t.track.handler);
        expect(got.timescale).toBe(t.track.timescale);
        expect(got.language).toBe(t.track.language);
        expect(Buffer.from(got.stsd)).toEqual(Buffer.from(t.track.stsd));
        expect(Buffer.from(got.tkhd.matrix)).toEqual(Buffer.from(t.track.tkhd.matrix));
        expect(got.edits).toEqual(t.edits);
        expect(got.samples.count).toBe(t.count);
        for (let k = 0; k < t.count; k++) {
          const s = t.from + k;
          expect(got.samples.size[k]).toBe(want.size[s]);
          expect(got.samples.offset[k]).toBe(base + want.offset[s]!);
          expect(got.samples.dts[k]).toBe(want.dts[s]! - want.dts[t.from]!);
          expect(got.samples.cto[k]).toBe(want.cto[s]);
          expect(got.samples.key?.[k] ?? 1).toBe(want.key?.[s] ?? 1);
        }
      });
    });
  }
});

describe("the fragmented copy's clip file: samples written first, the moov last", () => {
  // Room for the moov, or too little (8 bytes): the moov then goes after the samples, as plain ffmpeg writes it.
  for (const [title, room, layout] of [
    ["in the room kept before the samples", 64 * 1024, ["ftyp", "moov", "free", "mdat"]],
    ["after the samples when the room is too small", 8, ["ftyp", "free", "mdat", "moov"]],
  ] as const) {
    it(`puts the moov ${title}, listing each sample where its bytes were written`, async () => {
      const tracks = clipTracks();
      const src = join(dir, "src360.mp4");
      const reader = await openRangeReader({
        url: `file:${src}`,
        kind: "file",
        headers: {},
        title: "s",
        original: src,
      });
      const out = tempDir();
      const file = await Mp4ClipFile.create(out, clipFtyp("mp4", ["avc1", "mp4a"]), room);
      // Video, then sound, one sample at a time (the order a walk may write them in differs from the source's).
      for (const t of tracks) {
        const s = t.track.samples;
        for (let i = t.from; i < t.from + t.count; i++) await file.add(reader, s.offset[i]!, s.offset[i]! + s.size[i]!);
      }
      await file.finish(tracks, () => reader);
      const clip = join(out, "clip.mp4");
      await file.place(clip);
      await reader.close();
      expect(await readdir(out)).toEqual(["clip.mp4"]);

      const bytes = new Uint8Array(readFileSync(clip));
      const top = [...boxes(bytes)];
      expect(top.map((b) => b.type)).toEqual(layout);
      expect(top[top.length - 1]!.end).toBe(bytes.length);
      const moov = top.find((b) => b.type === "moov")!;
      const written = readMovie(bytes.subarray(moov.start, moov.end));
      const source = new Uint8Array(readFileSync(src));
      tracks.forEach((t, n) => {
        const got = written.tracks[n]!.samples;
        expect(got.count).toBe(t.count);
        for (let k = 0; k < t.count; k++) {
          const at = t.track.samples.offset[t.from + k]!;
          const size = t.track.samples.size[t.from + k]!;
          expect(Buffer.from(bytes.subarray(got.offset[k]!, got.offset[k]! + size))).toEqual(
            Buffer.from(source.subarray(at, at + size)),
          );
        }
      });
      // ffmpeg reads the file as written: every listed packet of both streams.
      expect((await packetTimes(clip, "v")).length).toBe(90);
      expect((await packetTimes(clip, "a")).length).toBe(140);
    });
  }
});
