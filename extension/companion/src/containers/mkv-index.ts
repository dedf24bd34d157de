import { elements, headerAt, MKV, text, uint, UNKNOWN_SIZE, vint, type Element } from "./ebml";
import type { RangeReader } from "../source/range-reader";

/**
 * Our reading of a Matroska/WebM file for the byte copy (mkv-copy.ts; path 2 of docs/decisions/002-cut-strategy.md):
 * the head (EBML header, Segment, SeekHead, Info, Tracks), the Cues (where each keyframe's cluster starts), and the
 * block headers of a span of clusters. Only through the guarded range reader. What it does not take is answered with a
 * reason.
 */

export interface MkvTrack {
  number: number;
  /** 1 video, 2 audio (TrackType). */
  type: number;
  codecId: string;
  /** The TrackEntry's children other than TrackNumber and TrackUID, as they are (CodecPrivate, CodecDelay, colour…). */
  rest: Uint8Array[];
  /** CodecDelay in nanoseconds (0 when absent). */
  codecDelay: number;
  /** DefaultDuration in nanoseconds (0 when absent). */
  defaultDuration: number;
}

export interface CuePoint {
  /** In the file's timecode units. */
  time: number;
  track: number;
  /** The cluster's absolute position in the file. */
  cluster: number;
}

export interface MkvFile {
  reader: RangeReader;
  /** Nanoseconds per timecode unit. */
  timecodeScale: number;
  tracks: MkvTrack[];
  cues: CuePoint[];
  /** Where the Segment's payload starts and ends in the file. */
  segmentStart: number;
  segmentEnd: number;
}

/** One block (SimpleBlock, or a BlockGroup's Block) of a cluster. */
export interface MkvBlock {
  track: number;
  /** Absolute time in the file's timecode units (cluster timecode + the block's relative one). */
  time: number;
  key: boolean;
  /** The element (SimpleBlock or BlockGroup) in the file: [start, end). */
  start: number;
  end: number;
  /** Where the block's track number byte is (its timecode's two bytes follow). */
  patch: number;
  /** The frame's bytes (the block's payload after its 4-byte header). */
  payload: number;
  /** BlockDuration, in timecode units, when the group gives one. */
  duration: number | null;
}

const MAX_HEAD_ELEMENT = 16 * 1024 * 1024;

/**
 * The head and Cues of a Matroska/WebM file, or why the byte copy does not take it. `withCues: false` skips the
 * Cues (those after the clusters cost a request) and answers with none.
 */
export async function readMkvHead(reader: RangeReader, o: { withCues?: boolean } = {}): Promise<MkvFile | string> {
  const withCues = o.withCues ?? true;
  const size = reader.size;
  const small = async (at: number) => reader.read(at, Math.min(size, at + 16));
  const ebml = headerAt(await small(0), 0);
  if (!ebml || ebml.id !== MKV.ebml) return "no EBML header";
  const ebmlBody = await reader.read(0, Math.min(size, ebml.end));
  let docType = "";
  for (const e of elements(ebmlBody, ebml.start, ebml.end)) if (e?.id === MKV.docType) docType = text(ebmlBody, e);
  if (docType !== "webm" && docType !== "matroska") return `doctype ${docType || "none"}`;
  const segHead = await small(ebml.end);
  const seg = readHeader(segHead, 0);
  if (!seg || seg.id !== MKV.segment) return "no Segment";
  const segmentStart = ebml.end + seg.start;
  const segmentEnd = seg.unknown ? size : Math.min(size, ebml.end + seg.end);

  let info: Uint8Array | null = null;
  let tracks: Uint8Array | null = null;
  let cues: Uint8Array | null = null;
  let cuesAt: number | null = null;
  const readWhole = async (at: number, e: Element) => {
    if (e.end - e.start > MAX_HEAD_ELEMENT) return null;
    const b = await reader.read(at, Math.min(size, at + e.end));
    return b.length === e.end ? b : null;
  };
  // The top level up to the first cluster; the SeekHead says where the Cues are when they follow the clusters.
  for (let at = segmentStart, n = 0; at < segmentEnd && n < 64; n++) {
    const e = headerAt(await small(at), 0);
    if (!e) return "a malformed top-level element";
    if (e.id === MKV.cluster) break;
    if (e.id === MKV.seekHead) {
      const b = await readWhole(at, e);
      if (!b) return "a malformed SeekHead";
      for (const s of elements(b, e.start, e.end)) {
        if (!s) return "a malformed SeekHead";
        if (s.id !== MKV.seek) continue;
        let id = 0;
        let position = -1;
        for (const f of elements(b, s.start, s.end)) {
          if (f?.id === MKV.seekId) id = uint(b, f);
          if (f?.id === MKV.seekPosition) position = uint(b, f);
        }
        if (id === MKV.cues && position >= 0) cuesAt = segmentStart + position;
      }
    } else if (e.id === MKV.info) info = await readWhole(at, e);
    else if (e.id === MKV.tracks) tracks = await readWhole(at, e);
    else if (e.id === MKV.cues) cues = await readWhole(at, e);
    at += e.end;
  }
  if (withCues && !cues && cuesAt !== null && cuesAt < size) {
    const e = headerAt(await small(cuesAt), 0);
    if (e?.id === MKV.cues) cues = await readWhole(cuesAt, e);
  }
  if (!info || !tracks) return "no Info or Tracks before the first cluster";
  if (withCues && !cues) return "no Cues";

  let timecodeScale = 1_000_000;
  const infoTop = headerAt(info, 0)!;
  for (const e of elements(info, infoTop.start, infoTop.end)) {
    if (e?.id === MKV.timecodeScale) timecodeScale = uint(info, e);
  }
  const parsedTracks = readTracks(tracks);
  if (typeof parsedTracks === "string") return parsedTracks;
  const points: CuePoint[] = [];
  const cueBytes = withCues && cues ? cues : new Uint8Array(0);
  const cuesTop = cueBytes.length > 0 ? headerAt(cueBytes, 0)! : { start: 0, end: 0 };
  for (const p of elements(cueBytes, cuesTop.start, cuesTop.end)) {
    if (!p) return "malformed Cues";
    if (p.id !== MKV.cuePoint) continue;
    let time = -1;
    for (const f of elements(cueBytes, p.start, p.end)) {
      if (f?.id === MKV.cueTime) time = uint(cueBytes, f);
      if (f?.id !== MKV.cueTrackPositions) continue;
      let track = 0;
      let cluster = -1;
      for (const g of elements(cueBytes, f.start, f.end)) {
        if (g?.id === MKV.cueTrack) track = uint(cueBytes, g);
        if (g?.id === MKV.cueClusterPosition) cluster = uint(cueBytes, g);
      }
      if (time >= 0 && cluster >= 0) points.push({ time, track, cluster: segmentStart + cluster });
    }
  }
  points.sort((a, b) => a.time - b.time);
  return { reader, timecodeScale, tracks: parsedTracks, cues: points, segmentStart, segmentEnd };
}

function readHeader(b: Uint8Array, at: number): (Element & { unknown: boolean }) | null {
  const id = vint(b, at, true);
  const size = id && vint(b, at + id.length, false);
  if (!id || !size) return null;
  const start = at + id.length + size.length;
  const unknown = size.value === UNKNOWN_SIZE;
  return { id: id.value, start, end: unknown ? Infinity : start + size.value, unknown };
}

function readTracks(b: Uint8Array): MkvTrack[] | string {
  const top = headerAt(b, 0)!;
  const out: MkvTrack[] = [];
  for (const t of elements(b, top.start, top.end)) {
    if (!t) return "malformed Tracks";
    if (t.id !== MKV.trackEntry) continue;
    const track: MkvTrack = { number: 0, type: 0, codecId: "", rest: [], codecDelay: 0, defaultDuration: 0 };
    for (let at = t.start; at < t.end;) {
      const f = headerAt(b, at);
      if (!f || f.end > t.end) return "a malformed TrackEntry";
      if (f.id === MKV.trackNumber) track.number = uint(b, f);
      else if (f.id !== MKV.trackUid) track.rest.push(b.subarray(at, f.end));
      if (f.id === MKV.trackType) track.type = uint(b, f);
      if (f.id === MKV.codecId) track.codecId = text(b, f);
      if (f.id === MKV.codecDelay) track.codecDelay = uint(b, f);
      if (f.id === MKV.defaultDuration) track.defaultDuration = uint(b, f);
      if (f.id === MKV.contentEncodings) return "compressed or encrypted blocks (ContentEncodings)";
      at = f.end;
    }
    out.push(track);
  }
  return out;
}

/**
 * The blocks of the clusters from `from` (a cluster's position) to `to` (exclusive; the next cluster past the clip,
 * or the Segment's end), in file order, read as the reader fetches the span, through the first one that is `last`;
 * `onBlock` sees each one as it is read (the copy writes it out then). Laced blocks and clusters of unknown size are
 * refused (a string), not guessed.
 */
export async function readBlocks(
  file: MkvFile,
  from: number,
  to: number,
  last: (block: MkvBlock) => boolean = () => false,
  onBlock?: (block: MkvBlock) => Promise<void>,
): Promise<MkvBlock[] | string> {
  const reader = file.reader;
  const head = async (at: number) => reader.read(at, Math.min(reader.size, at + 16));
  const blocks: MkvBlock[] = [];
  for (let at = from; at < to;) {
    const c = headerAt(await head(at), 0);
    if (!c) return "a malformed or unknown-size cluster";
    const end = at + c.end;
    if (c.id !== MKV.cluster) {
      if (c.id === MKV.void) {
        at = end;
        continue;
      }
      break;
    }
    let clusterTime: number | null = null;
    for (let p = at + c.start; p < end;) {
      const h = await head(p);
      const e = headerAt(h, 0);
      if (!e || p + e.end > end) return "a malformed cluster";
      if (e.id === MKV.timecode) {
        clusterTime = uint(await reader.read(p, p + e.end), e);
      } else if (e.id === MKV.simpleBlock || e.id === MKV.blockGroup) {
        if (clusterTime === null) return "a block before its cluster's timecode";
        const block = await readBlock(reader, p, p + e.end, e, clusterTime);
        if (typeof block === "string") return block;
        blocks.push(block);
        await onBlock?.(block);
        if (last(block)) return blocks;
      }
      p += e.end;
    }
    at = end;
  }
  return blocks;
}

async function readBlock(
  reader: RangeReader,
  at: number,
  end: number,
  e: Element,
  clusterTime: number,
): Promise<MkvBlock | string> {
  let blockAt = at + e.start;
  let blockEnd = end;
  let key = false;
  let duration: number | null = null;
  if (e.id === MKV.blockGroup) {
    // A group's block is a keyframe when nothing is referenced.
    key = true;
    let found = false;
    for (let p = at + e.start; p < end;) {
      const h = await reader.read(p, Math.min(end, p + 16));
      const f = headerAt(h, 0);
      if (!f || p + f.end > end) return "a malformed BlockGroup";
      if (f.id === MKV.block) {
        blockAt = p + f.start;
        blockEnd = p + f.end;
        found = true;
      } else if (f.id === MKV.referenceBlock) key = false;
      else if (f.id === MKV.blockDuration) duration = uint(await reader.read(p, p + f.end), f);
      p += f.end;
    }
    if (!found) return "a BlockGroup without a Block";
  }
  const b = await reader.read(blockAt, Math.min(blockEnd, blockAt + 4));
  const track = vint(b, 0, false);
  if (!track || track.length !== 1 || b.length < 4) return "a block with a long track number";
  const relative = new DataView(b.buffer, b.byteOffset).getInt16(1);
  const flags = b[3]!;
  if (flags & 0x06) return "laced blocks";
  if (e.id === MKV.simpleBlock) key = (flags & 0x80) !== 0;
  return {
    track: track.value,
    time: clusterTime + relative,
    key,
    start: at,
    end,
    patch: blockAt,
    payload: blockEnd - blockAt - 4,
    duration,
  };
}

/**
 * ffmpeg's Matroska demuxer places a track's packets its CodecDelay earlier than their block times (Opus's pre-skip,
 * written there by the muxers): every copy of a Matroska source chooses and places its sound on that clock.
 */
export const demuxShiftSeconds = (track: Pick<MkvTrack, "codecDelay">) => track.codecDelay / 1e9;
