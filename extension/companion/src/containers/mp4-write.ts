import type { Format } from "../../../../app/domain/media";
import { concat } from "../bytes";
import type { Edit, Mp4Track } from "./mp4-tables";

/**
 * The clip's boxes for the fragmented MP4 byte copy (mp4-copy.ts, mp4-clip-file.ts): `ftyp`, a `moov` whose sample
 * tables list the chosen samples of each track where they were written, the `mdat` header and `free` room.
 */

/** One track of the clip: the source samples [from, from + count) in decode order, and its edit list. */
export interface ClipTrack {
  track: Mp4Track;
  from: number;
  count: number;
  /** Segment durations in MOVIE_TIMESCALE. */
  edits: Edit[];
}

/** ffmpeg's movie timescale: edit lists and track durations are in milliseconds. */
export const MOVIE_TIMESCALE = 1000;

const u8 = (n: number) => Uint8Array.of(n & 0xff);
const u16 = (n: number) => Uint8Array.of((n >>> 8) & 0xff, n & 0xff);
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0);
  return b;
};
const i32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
};
const u64 = (n: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
};
const i64 = (n: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt(n));
  return b;
};
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

const box = (type: string, ...parts: Uint8Array[]) => {
  const body = concat(parts);
  return concat([u32(body.length + 8), ascii(type), body]);
};
/** A full box: version and flags first. */
const full = (type: string, version: number, flags: number, ...parts: Uint8Array[]) =>
  box(type, u8(version), u8(flags >> 16), u16(flags & 0xffff), ...parts);

/** A table of 32-bit fields, built in one buffer (a few thousand entries per track). */
function table(entries: number, fields: number, fill: (v: DataView, i: number) => void): Uint8Array {
  const b = new Uint8Array(4 + entries * fields * 4);
  const v = new DataView(b.buffer);
  v.setUint32(0, entries);
  for (let i = 0; i < entries; i++) fill(v, i);
  return b;
}

/** Runs of equal values (stts, ctts): [value, run length] pairs. */
function runs(count: number, value: (i: number) => number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const x = value(i);
    const last = out[out.length - 1];
    if (last && last[0] === x) last[1]++;
    else out.push([x, 1]);
  }
  return out;
}

const IDENTITY = concat([0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(u32));

/** Media duration of a clip track in its own timescale. */
export function mediaDuration(t: ClipTrack): number {
  let d = 0;
  for (let i = t.from; i < t.from + t.count; i++) d += t.track.samples.duration[i]!;
  return d;
}

const movieDuration = (t: ClipTrack) => t.edits.reduce((s, e) => s + e.segmentDuration, 0);

function stbl(t: ClipTrack, place: (sourceOffset: number) => number, wide: boolean): Uint8Array {
  const s = t.track.samples;
  const n = t.count;
  const at = (i: number) => t.from + i;
  // Durations: the source's (its decode-time gaps), so decode times keep their spacing.
  const stts = runs(n, (i) => s.duration[at(i)]!);
  const ctts = runs(n, (i) => s.cto[at(i)]!);
  const parts = [
    t.track.stsd,
    full(
      "stts",
      0,
      0,
      table(stts.length, 2, (v, i) => (v.setUint32(4 + i * 8, stts[i]![1]), v.setUint32(8 + i * 8, stts[i]![0]))),
    ),
  ];
  if (ctts.length > 1 || ctts[0]?.[0] !== 0) {
    const negative = ctts.some(([x]) => x < 0);
    parts.push(
      full(
        "ctts",
        negative ? 1 : 0,
        0,
        table(ctts.length, 2, (v, i) => (v.setUint32(4 + i * 8, ctts[i]![1]), v.setInt32(8 + i * 8, ctts[i]![0]))),
      ),
    );
  }
  if (s.key) {
    const keys: number[] = [];
    for (let i = 0; i < n; i++) if (s.key[at(i)]) keys.push(i + 1);
    if (keys.length < n)
      parts.push(
        full(
          "stss",
          0,
          0,
          table(keys.length, 1, (v, i) => v.setUint32(4 + i * 4, keys[i]!)),
        ),
      );
  }
  const sizes = s.size.subarray(t.from, t.from + n);
  const same = sizes.every((x) => x === sizes[0]);
  parts.push(
    full(
      "stsz",
      0,
      0,
      u32(same ? (sizes[0] ?? 0) : 0),
      same ? u32(n) : table(n, 1, (v, i) => v.setUint32(4 + i * 4, sizes[i]!)),
    ),
  );
  // Chunks: runs of samples that lie back to back in the clip's mdat (the source's chunks, cut to the clip).
  const chunks: { offset: number; samples: number }[] = [];
  for (let i = 0; i < n; i++) {
    const o = place(s.offset[at(i)]!);
    const last = chunks[chunks.length - 1];
    if (last && i > 0 && o === place(s.offset[at(i - 1)]!) + s.size[at(i - 1)]!) last.samples++;
    else chunks.push({ offset: o, samples: 1 });
  }
  const stsc = runs(chunks.length, (c) => chunks[c]!.samples);
  let firstChunk = 1;
  const stscEntries = stsc.map(([samples, length]) => {
    const e = [firstChunk, samples];
    firstChunk += length;
    return e;
  });
  parts.push(
    full(
      "stsc",
      0,
      0,
      table(stscEntries.length, 3, (v, i) => {
        v.setUint32(4 + i * 12, stscEntries[i]![0]!);
        v.setUint32(8 + i * 12, stscEntries[i]![1]!);
        v.setUint32(12 + i * 12, 1);
      }),
    ),
  );
  parts.push(
    wide
      ? full(
          "co64",
          0,
          0,
          table(chunks.length, 2, (v, i) => v.setBigUint64(4 + i * 8, BigInt(chunks[i]!.offset))),
        )
      : full(
          "stco",
          0,
          0,
          table(chunks.length, 1, (v, i) => v.setUint32(4 + i * 4, chunks[i]!.offset)),
        ),
  );
  return box("stbl", ...parts);
}

function trak(t: ClipTrack, id: number, place: (o: number) => number, wide: boolean): Uint8Array {
  const k = t.track.tkhd;
  const duration = movieDuration(t);
  const tkhd = full(
    "tkhd",
    1,
    3, // enabled, in the movie
    u64(0),
    u64(0),
    u32(id),
    u32(0),
    u64(duration),
    new Uint8Array(8),
    u16(k.layer),
    u16(k.group),
    u16(k.volume),
    u16(0),
    k.matrix,
    u32(k.width),
    u32(k.height),
  );
  const elst = full(
    "elst",
    1,
    0,
    u32(t.edits.length),
    ...t.edits.flatMap((e) => [u64(e.segmentDuration), i64(e.mediaTime < 0 ? -1 : e.mediaTime), i32(e.rate)]),
  );
  const mdhd = full(
    "mdhd",
    1,
    0,
    u64(0),
    u64(0),
    u32(t.track.timescale),
    u64(mediaDuration(t)),
    u16(t.track.language),
    u16(0),
  );
  const dinf = box("dinf", full("dref", 0, 0, u32(1), full("url ", 0, 1)));
  const minf = box("minf", ...(t.track.mediaHeader ? [t.track.mediaHeader] : []), dinf, stbl(t, place, wide));
  return box("trak", tkhd, box("edts", elst), box("mdia", mdhd, t.track.hdlr, minf));
}

/** The clip's `ftyp`, for tracks of these sample entries (avc1, mp4a…). */
export function clipFtyp(format: Format, codecs: string[]): Uint8Array {
  if (format === "mov") return box("ftyp", ascii("qt  "), u32(0x200), ascii("qt  "));
  const brands = ["isom", "iso2", ...(codecs.includes("avc1") || codecs.includes("avc3") ? ["avc1"] : []), "mp41"];
  return box("ftyp", ascii("isom"), u32(0x200), ...brands.map(ascii));
}

/**
 * The clip's `moov`: `at(t, o)` is where track t's source byte at `o` is in the clip's file (the sample tables'
 * chunk offsets); `wide`: co64 (a file past 4 GiB).
 */
export function clipMoov(
  tracks: ClipTrack[],
  at: (track: ClipTrack, sourceOffset: number) => number,
  wide: boolean,
): Uint8Array {
  const duration = Math.max(0, ...tracks.map(movieDuration));
  const mvhd = full(
    "mvhd",
    1,
    0,
    u64(0),
    u64(0),
    u32(MOVIE_TIMESCALE),
    u64(duration),
    u32(0x10000),
    u16(0x100),
    new Uint8Array(10),
    IDENTITY,
    new Uint8Array(24),
    u32(tracks.length + 1),
  );
  return box("moov", mvhd, ...tracks.map((t, i) => trak(t, i + 1, (o) => at(t, o), wide)));
}

/** An mdat header for `payload` bytes: 8 bytes, or 16 (a 64-bit size) past 4 GiB. */
export const mdatHeader = (payload: number) =>
  payload + 8 > 0xffffffff
    ? concat([u32(1), ascii("mdat"), u64(payload + 16)])
    : concat([u32(payload + 8), ascii("mdat")]);

/** A `free` box of `length` bytes (8 or more): room kept or left in the file. */
export const freeBox = (length: number) => concat([u32(length), ascii("free"), new Uint8Array(length - 8)]);
