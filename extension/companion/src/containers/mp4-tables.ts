// Long because: one reading of MP4 sample tables, progressive (moov) and fragmented (moof), sharing the typed-array
// layout and the box walkers; split, each half would import the other's private helpers.
/**
 * Our own reading of a progressive MP4/MOV's sample tables (ISO/IEC 14496-12: moov > trak > mdia > minf > stbl), for
 * the byte-level copy (mp4-copy.ts; path 1 of docs/decisions/002-cut-strategy.md): per track, typed arrays of each
 * sample's file offset, size, decode time, composition offset, duration and key flag, plus the boxes the clip keeps
 * verbatim (stsd with avcC/colr/pasp/esds, hdlr, vmhd/smhd) and the facts it rewrites (tkhd matrix, mdhd timescale and
 * language, the edit list). No per-sample objects: a 4-minute 1080p track has ~7000 video and ~11000 audio samples.
 */

import { boxes, child, fourcc, malformed, type Box } from "./mp4-boxes";

export interface Edit {
  /** In the movie's timescale. */
  segmentDuration: number;
  /** In the track's timescale; -1 for an empty edit. */
  mediaTime: number;
  /** 16.16 fixed point; 0x10000 is normal speed. */
  rate: number;
}

export interface SampleTable {
  count: number;
  offset: Float64Array;
  size: Uint32Array;
  dts: Float64Array;
  duration: Uint32Array;
  /** Composition offset (signed: ctts version 1, and version 0 as ffmpeg reads it). */
  cto: Int32Array;
  /** Null: every sample is a sync sample (no stss). */
  key: Uint8Array | null;
}

export interface Mp4Track {
  id: number;
  handler: string;
  timescale: number;
  /** mdhd's packed ISO-639-2 code. */
  language: number;
  /** The sample entry's four-character code (avc1, hvc1, mp4a…). */
  codec: string;
  tkhd: { matrix: Uint8Array; width: number; height: number; volume: number; layer: number; group: number };
  edits: Edit[];
  /** Boxes kept as they are. */
  hdlr: Uint8Array;
  mediaHeader: Uint8Array | null;
  stsd: Uint8Array;
  samples: SampleTable;
}

export interface Mp4Movie {
  timescale: number;
  tracks: Mp4Track[];
  /** The movie is fragmented (an mvex): its samples are not in these tables. */
  fragmented: boolean;
  /** A fragmented movie's per-track sample defaults (trex), by track ID. */
  trex: Map<number, SampleDefaults>;
}

export interface SampleDefaults {
  duration: number;
  size: number;
  flags: number;
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

const need = (b: Uint8Array, parent: Box, type: string) => {
  const c = child(b, parent, type);
  if (!c) throw malformed(`no ${type}`);
  return c;
};

/** Reads a whole `moov` box (its bytes, header included). */
export function readMovie(moov: Uint8Array): Mp4Movie {
  const root = boxes(moov).next().value;
  if (!root || root.type !== "moov") throw malformed("moov");
  const v = view(moov);
  const mvhd = need(moov, root, "mvhd");
  const timescale = v.getUint32(mvhd.body + (moov[mvhd.body] === 1 ? 20 : 12));
  const tracks: Mp4Track[] = [];
  for (const trak of boxes(moov, root.body, root.end)) {
    if (trak.type === "trak") tracks.push(readTrack(moov, trak));
  }
  const trex = new Map<number, SampleDefaults>();
  const mvex = child(moov, root, "mvex");
  for (const box of mvex ? boxes(moov, mvex.body, mvex.end) : []) {
    if (box.type !== "trex") continue;
    trex.set(v.getUint32(box.body + 4), {
      duration: v.getUint32(box.body + 12),
      size: v.getUint32(box.body + 16),
      flags: v.getUint32(box.body + 20),
    });
  }
  return { timescale, tracks, fragmented: mvex !== undefined, trex };
}

/** A fragmented track's samples, gathered from its `traf`s before they become a SampleTable. */
export class FragmentSamples {
  offset: number[] = [];
  size: number[] = [];
  dts: number[] = [];
  duration: number[] = [];
  cto: number[] = [];
  key: number[] = [];

  table(): SampleTable {
    return {
      count: this.size.length,
      offset: Float64Array.from(this.offset),
      size: Uint32Array.from(this.size),
      dts: Float64Array.from(this.dts),
      duration: Uint32Array.from(this.duration),
      cto: Int32Array.from(this.cto),
      key: Uint8Array.from(this.key),
    };
  }
}

/** A sample is a sync sample unless sample_is_non_sync_sample (ISO/IEC 14496-12 8.8.3.1) is set. */
const isSync = (flags: number) => (flags & 0x10000) === 0;

/**
 * The samples of one `moof` (its bytes, at file offset `moofAt`), added to each track's list (tfhd, tfdt, trun: the
 * data offsets, sizes, durations, composition offsets and sync flags, with the tfhd's and trex's defaults).
 */
export function readMoof(b: Uint8Array, moofAt: number, movie: Mp4Movie, out: Map<number, FragmentSamples>): void {
  const v = view(b);
  const root = boxes(b).next().value;
  if (!root || root.type !== "moof") throw malformed("moof");
  for (const traf of boxes(b, root.body, root.end)) {
    if (traf.type !== "traf") continue;
    const tfhd = need(b, traf, "tfhd");
    const flags = v.getUint32(tfhd.body) & 0xffffff;
    const id = v.getUint32(tfhd.body + 4);
    const defaults = movie.trex.get(id) ?? { duration: 0, size: 0, flags: 0 };
    let p = tfhd.body + 8;
    let base = moofAt;
    if (flags & 0x1) {
      base = Number(v.getBigUint64(p));
      p += 8;
    }
    if (flags & 0x2) p += 4;
    let duration = defaults.duration;
    let size = defaults.size;
    let sampleFlags = defaults.flags;
    if (flags & 0x8) {
      duration = v.getUint32(p);
      p += 4;
    }
    if (flags & 0x10) {
      size = v.getUint32(p);
      p += 4;
    }
    if (flags & 0x20) sampleFlags = v.getUint32(p);
    const list = out.get(id);
    const tfdt = child(b, traf, "tfdt");
    if (!list) continue;
    let t = tfdt ? (b[tfdt.body] === 1 ? Number(v.getBigUint64(tfdt.body + 4)) : v.getUint32(tfdt.body + 4)) : NaN;
    if (Number.isNaN(t)) {
      const n = list.dts.length;
      if (n === 0) throw malformed("no tfdt");
      t = list.dts[n - 1]! + list.duration[n - 1]!;
    }
    let dataAt = base;
    for (const trun of boxes(b, traf.body, traf.end)) {
      if (trun.type !== "trun") continue;
      const version = b[trun.body]!;
      const tf = v.getUint32(trun.body) & 0xffffff;
      const count = v.getUint32(trun.body + 4);
      let q = trun.body + 8;
      if (tf & 0x1) {
        dataAt = base + v.getInt32(q);
        q += 4;
      }
      let firstFlags: number | null = null;
      if (tf & 0x4) {
        firstFlags = v.getUint32(q);
        q += 4;
      }
      for (let i = 0; i < count; i++) {
        if (q > trun.end) throw malformed("trun");
        const d = tf & 0x100 ? v.getUint32(q) : duration;
        if (tf & 0x100) q += 4;
        const s = tf & 0x200 ? v.getUint32(q) : size;
        if (tf & 0x200) q += 4;
        let f = tf & 0x400 ? v.getUint32(q) : sampleFlags;
        if (tf & 0x400) q += 4;
        if (i === 0 && firstFlags !== null) f = firstFlags;
        const c = tf & 0x800 ? (version === 0 ? v.getUint32(q) | 0 : v.getInt32(q)) : 0;
        if (tf & 0x800) q += 4;
        list.offset.push(dataAt);
        list.size.push(s);
        list.dts.push(t);
        list.duration.push(d);
        list.cto.push(c);
        list.key.push(isSync(f) ? 1 : 0);
        dataAt += s;
        t += d;
      }
    }
  }
}

function readTrack(b: Uint8Array, trak: Box): Mp4Track {
  const v = view(b);
  const tkhd = need(b, trak, "tkhd");
  const tv1 = b[tkhd.body] === 1;
  const id = v.getUint32(tkhd.body + (tv1 ? 20 : 12));
  // After the version-dependent times: reserved (8), layer, group, volume, reserved, matrix (36), width, height.
  const fixed = tkhd.body + (tv1 ? 36 : 24) + 8;
  const tk = {
    layer: v.getInt16(fixed),
    group: v.getInt16(fixed + 2),
    volume: v.getInt16(fixed + 4),
    matrix: b.slice(fixed + 8, fixed + 44),
    width: v.getUint32(fixed + 44),
    height: v.getUint32(fixed + 48),
  };
  const edits: Edit[] = [];
  const elst = child(b, trak, "edts") && child(b, child(b, trak, "edts")!, "elst");
  if (elst) {
    const ev1 = b[elst.body] === 1;
    const count = v.getUint32(elst.body + 4);
    let p = elst.body + 8;
    for (let i = 0; i < count; i++) {
      if (ev1) {
        edits.push({
          segmentDuration: Number(v.getBigUint64(p)),
          mediaTime: Number(v.getBigInt64(p + 8)),
          rate: v.getInt32(p + 16),
        });
        p += 20;
      } else {
        edits.push({ segmentDuration: v.getUint32(p), mediaTime: v.getInt32(p + 4), rate: v.getInt32(p + 8) });
        p += 12;
      }
      if (p > elst.end) throw malformed("elst");
    }
  }
  const mdia = need(b, trak, "mdia");
  const mdhd = need(b, mdia, "mdhd");
  const mv1 = b[mdhd.body] === 1;
  const timescale = v.getUint32(mdhd.body + (mv1 ? 20 : 12));
  const language = v.getUint16(mdhd.body + (mv1 ? 32 : 20)) & 0x7fff;
  const hdlr = need(b, mdia, "hdlr");
  const minf = need(b, mdia, "minf");
  const stbl = need(b, minf, "stbl");
  const header = child(b, minf, "vmhd") ?? child(b, minf, "smhd");
  const stsd = need(b, stbl, "stsd");
  const firstEntry = stsd.body + 8;
  return {
    id,
    handler: fourcc(b, hdlr.body + 8),
    timescale,
    language,
    codec: firstEntry + 8 <= stsd.end ? fourcc(b, firstEntry + 4) : "",
    tkhd: tk,
    edits,
    hdlr: b.slice(hdlr.start, hdlr.end),
    mediaHeader: header ? b.slice(header.start, header.end) : null,
    stsd: b.slice(stsd.start, stsd.end),
    samples: readSamples(b, stbl),
  };
}

function readSamples(b: Uint8Array, stbl: Box): SampleTable {
  const v = view(b);
  const stsz = child(b, stbl, "stsz");
  if (!stsz) throw malformed("no stsz (stz2 is not read)");
  const fixedSize = v.getUint32(stsz.body + 4);
  const count = v.getUint32(stsz.body + 8);
  if (fixedSize === 0 && stsz.body + 12 + 4 * count > stsz.end) throw malformed("stsz");
  const size = new Uint32Array(count);
  for (let i = 0; i < count; i++) size[i] = fixedSize || v.getUint32(stsz.body + 12 + 4 * i);

  // stts: runs of (count, delta) give each sample's duration and decode time.
  const stts = need(b, stbl, "stts");
  const duration = new Uint32Array(count);
  const dts = new Float64Array(count);
  {
    const runs = v.getUint32(stts.body + 4);
    let i = 0;
    let t = 0;
    for (let r = 0, p = stts.body + 8; r < runs && i < count; r++, p += 8) {
      if (p + 8 > stts.end) throw malformed("stts");
      const n = v.getUint32(p);
      const delta = v.getUint32(p + 4);
      for (let k = 0; k < n && i < count; k++, i++) {
        dts[i] = t;
        duration[i] = delta;
        t += delta;
      }
    }
    if (i < count) throw malformed("stts shorter than stsz");
  }

  const cto = new Int32Array(count);
  const ctts = child(b, stbl, "ctts");
  if (ctts) {
    const runs = v.getUint32(ctts.body + 4);
    let i = 0;
    for (let r = 0, p = ctts.body + 8; r < runs && i < count; r++, p += 8) {
      if (p + 8 > ctts.end) throw malformed("ctts");
      const n = v.getUint32(p);
      const offset = v.getInt32(p + 4);
      for (let k = 0; k < n && i < count; k++, i++) cto[i] = offset;
    }
  }

  let key: Uint8Array | null = null;
  const stss = child(b, stbl, "stss");
  if (stss) {
    key = new Uint8Array(count);
    const n = v.getUint32(stss.body + 4);
    if (stss.body + 8 + 4 * n > stss.end) throw malformed("stss");
    for (let k = 0; k < n; k++) {
      const s = v.getUint32(stss.body + 8 + 4 * k);
      if (s >= 1 && s <= count) key[s - 1] = 1;
    }
  }

  // stsc runs (first chunk, samples per chunk) over stco/co64 chunk offsets: each sample's offset.
  const stco = child(b, stbl, "stco");
  const co64 = child(b, stbl, "co64");
  const chunks = stco ?? co64;
  const stsc = child(b, stbl, "stsc");
  if (!chunks || !stsc) throw malformed("no stco/stsc");
  const chunkCount = v.getUint32(chunks.body + 4);
  if (chunks.body + 8 + chunkCount * (co64 && !stco ? 8 : 4) > chunks.end) throw malformed("stco");
  const chunkOffset = (c: number) =>
    stco ? v.getUint32(stco.body + 8 + 4 * c) : Number(v.getBigUint64(co64!.body + 8 + 8 * c));
  const runs = v.getUint32(stsc.body + 4);
  if (stsc.body + 8 + runs * 12 > stsc.end) throw malformed("stsc");
  const offset = new Float64Array(count);
  let i = 0;
  for (let r = 0; r < runs && i < count; r++) {
    const p = stsc.body + 8 + r * 12;
    const first = v.getUint32(p) - 1;
    const perChunk = v.getUint32(p + 4);
    const last = r + 1 < runs ? v.getUint32(p + 12) - 1 : chunkCount;
    for (let c = first; c < last && i < count; c++) {
      let at = chunkOffset(c);
      for (let k = 0; k < perChunk && i < count; k++, i++) {
        offset[i] = at;
        at += size[i]!;
      }
    }
  }
  if (i < count) throw malformed("stsc/stco shorter than stsz");
  return { count, offset, size, dts, duration, cto, key };
}
