/**
 * The fragmented MP4 index (`sidx`) that DASH files carry after their `moov` (YouTube's do; they have no `mfra`).
 * mediabunny seeks in fragmented MP4 by walking every `moof` from the start (about 90 dependent requests to reach 150
 * s), so the in-process copy reads this index itself and opens only the clip's fragments (paths 1 and 3 of
 * docs/decisions/002-cut-strategy.md).
 */

import { boxes, boxHeader, child } from "./mp4-boxes";
export interface Subsegment {
  /** Byte offset in the file and length. */
  offset: number;
  size: number;
  /** Earliest presentation time and duration in seconds (the media clock, before any edit list). */
  time: number;
  duration: number;
  /** Starts with a stream access point (a keyframe): a read may begin there. */
  startsWithSap: boolean;
}

export interface FragmentIndex {
  /** Bytes [0, initEnd) hold ftyp and moov: the segment view's init input. */
  initEnd: number;
  subsegments: Subsegment[];
}

type Read = (start: number, end: number) => Promise<Uint8Array>;

/** The top-level boxes from the start of the file, up to the first `moof` or `mdat` (excluded); null: malformed. */
async function* initBoxes(
  read: Read,
  size: number,
): AsyncGenerator<{ type: string; at: number; length: number } | null> {
  let at = 0;
  for (let boxes = 0; at + 8 <= size && boxes < 64; boxes++) {
    const box = boxHeader(await read(at, Math.min(size, at + 16)), at, size);
    if (!box) return yield null;
    const { type, length } = box;
    if (type === "moof" || type === "mdat") return;
    yield { type, at, length };
    at += length;
  }
}

/**
 * Walks the top-level boxes from the start up to the first `moof`: a fragmented file (a `moov` with `mvex`)
 * whose `sidx` references media (not other indexes) gives its subsegments; anything else gives null.
 */
export async function readFragmentIndex(read: Read, size: number): Promise<FragmentIndex | null> {
  let initEnd = 0;
  let fragmented = false;
  for await (const box of initBoxes(read, size)) {
    if (!box) return null;
    if (box.type === "moov") {
      fragmented = hasChild(await read(box.at, box.at + box.length), "mvex");
      initEnd = box.at + box.length;
    } else if (box.type === "sidx") {
      if (!fragmented || initEnd === 0) return null;
      return parseSidx(await read(box.at, box.at + box.length), box.at + box.length, initEnd);
    }
  }
  return null;
}

/**
 * A fragmented file's duration as ffprobe reports it: the latest end among its tracks' `sidx` boxes (one per track
 * after the moov; each from its earliest presentation time). Null without a sidx.
 */
export async function fragmentedDuration(read: Read, size: number): Promise<number | null> {
  let end: number | null = null;
  let initEnd = 0;
  for await (const box of initBoxes(read, size)) {
    if (!box) return null;
    if (box.type === "moov") initEnd = box.at + box.length;
    if (box.type !== "sidx" || initEnd === 0) continue;
    const index = parseSidx(await read(box.at, box.at + box.length), box.at + box.length, initEnd);
    const last = index?.subsegments[index.subsegments.length - 1];
    if (last) end = Math.max(end ?? 0, last.time + last.duration);
  }
  return end;
}

/**
 * Whether a box holds a child box of `type`, by walking its children's headers (an `mvex` is a direct child of the
 * `moov`): a few steps, where a byte search of a progressive file's moov (hundreds of KB of sample tables) cost
 * tens of milliseconds of CPU.
 */
function hasChild(box: Uint8Array, type: string): boolean {
  try {
    const root = boxes(box).next().value;
    return root ? child(box, root, type) !== undefined : false;
  } catch {
    return false;
  }
}

/** ISO/IEC 14496-12 8.16.3: version, timescale, earliest time, first offset, then one entry per reference. */
export function parseSidx(box: Uint8Array, boxEnd: number, initEnd: number): FragmentIndex | null {
  const v = new DataView(box.buffer, box.byteOffset, box.byteLength);
  let p = box.length >= 16 && v.getUint32(0) === 1 ? 16 : 8;
  if (box.length < p + 12) return null;
  const version = v.getUint8(p);
  const timescale = v.getUint32(p + 8);
  p += 12;
  let time: number;
  let offset: number;
  if (version === 0) {
    time = v.getUint32(p);
    offset = v.getUint32(p + 4);
    p += 8;
  } else {
    time = Number(v.getBigUint64(p));
    offset = Number(v.getBigUint64(p + 8));
    p += 16;
  }
  const count = v.getUint16(p + 2);
  p += 4;
  if (!timescale || box.length < p + count * 12) return null;
  let at = boxEnd + offset;
  const subsegments: Subsegment[] = [];
  for (let i = 0; i < count; i++, p += 12) {
    const ref = v.getUint32(p);
    // A reference to another sidx (a hierarchical index): not what YouTube or ffmpeg write; let mediabunny walk.
    if (ref >>> 31) return null;
    const size = ref & 0x7fffffff;
    const duration = v.getUint32(p + 4);
    const sap = v.getUint32(p + 8);
    subsegments.push({
      offset: at,
      size,
      time: time / timescale,
      duration: duration / timescale,
      startsWithSap: sap >>> 31 === 1,
    });
    at += size;
    time += duration;
  }
  return { initEnd, subsegments };
}

/**
 * The subsegments a clip of [start, end) needs: from the last one that begins at or before the start (the media
 * clock is at or after the presented one, so that one begins on a keyframe at or before the start) to the first
 * that begins `margin` seconds past the end. Null when the first of them does not begin with a keyframe.
 */
export function clipSubsegments(
  index: FragmentIndex,
  start: number,
  end: number,
  margin = 1,
  back = 0,
): { offset: number; length: number } | null {
  const list = index.subsegments;
  let first = 0;
  list.forEach((s, i) => {
    if (s.time <= start) first = i;
  });
  // `back` subsegments earlier (a caller that found the start's frame before the one the sidx's times gave).
  first = Math.max(0, first - back);
  let last = first;
  while (last + 1 < list.length && list[last + 1]!.time < end + margin) last++;
  const from = list[first];
  const to = list[last];
  if (!from || !to || !from.startsWithSap) return null;
  return { offset: from.offset, length: to.offset + to.size - from.offset };
}
