import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { boxes } from "../src/mp4-boxes";
import { readMovie } from "../src/mp4-tables";
import { clipHeader, type ClipTrack } from "../src/mp4-write";

/**
 * The byte copy's header (mp4-write.ts) read back by our own table reader: the clip's tables list exactly the chosen
 * source samples (sizes, decode-time gaps, composition offsets, sync flags) at the offsets the mdat gives them, with
 * 64-bit chunk offsets once the file passes 4 GiB. The source is a generated MP4 (x264 B-frames, AAC).
 */
const dir = inject("mediaDir");

function sourceMovie() {
  const file = readFileSync(join(dir, "src360.mp4"));
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const moov = [...boxes(bytes)].find((b) => b.type === "moov")!;
  return readMovie(bytes.subarray(moov.start, moov.end));
}

function roundTrip(payloadBase: number) {
  const movie = sourceMovie();
  const video = movie.tracks.find((t) => t.handler === "vide")!;
  const audio = movie.tracks.find((t) => t.handler === "soun")!;
  const tracks: ClipTrack[] = [
    { track: video, from: 60, count: 90, edits: [{ segmentDuration: 3000, mediaTime: 1024, rate: 0x10000 }] },
    { track: audio, from: 94, count: 140, edits: [{ segmentDuration: 2990, mediaTime: 0, rate: 0x10000 }] },
  ];
  // Every source byte lands `payloadBase` bytes later than its offset (a stand-in for a long file's mdat).
  const header = clipHeader("mp4", tracks, (_t, o) => payloadBase + o, payloadBase + 20_000_000);
  // The mdat's header closes it (its payload follows as the source's byte ranges).
  const mdatHeader = payloadBase > 0 ? 16 : 8;
  const top = [...boxes(header, 0, header.length - mdatHeader)];
  expect(top.map((b) => b.type)).toEqual(["ftyp", "moov"]);
  expect(Buffer.from(header.subarray(header.length - mdatHeader + 4, header.length - mdatHeader + 8)).toString()).toBe(
    "mdat",
  );
  const moov = top[1]!;
  const clip = readMovie(header.subarray(moov.start, moov.end));
  return { header, moov, tracks, clip };
}

describe("the byte copy's MP4 header", () => {
  for (const [title, base] of [
    ["under 4 GiB: 32-bit chunk offsets", 0],
    ["past 4 GiB: 64-bit chunk offsets", 5 * 2 ** 30],
  ] as const) {
    it(`lists exactly the chosen samples where the mdat holds them, ${title}`, () => {
      const { header, moov, tracks, clip } = roundTrip(base);
      const stco = (type: string) => Buffer.from(header.subarray(moov.start, moov.end)).includes(type);
      expect(stco("co64")).toBe(base > 0);
      expect(stco("stco")).toBe(base === 0);
      const start = header.length;
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
          expect(got.samples.offset[k]).toBe(start + base + want.offset[s]!);
          expect(got.samples.dts[k]).toBe(want.dts[s]! - want.dts[t.from]!);
          expect(got.samples.cto[k]).toBe(want.cto[s]);
          expect(got.samples.key?.[k] ?? 1).toBe(want.key?.[s] ?? 1);
        }
      });
    });
  }
});
