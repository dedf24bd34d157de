import type { FileHandle } from "node:fs/promises";
import { elementAt, elements, MKV, uint, UNKNOWN_SIZE, vint, type Element } from "../containers/ebml";
import { boxes, boxHeader, child } from "../containers/mp4-boxes";

/**
 * What a written MP4/MOV or Matroska/WebM file holds, per track, read from the container's own index (MP4's
 * sample table) or block headers (Matroska), in-process: no demuxer start. The copy check compares it with the
 * packets the cut chose. `null` means the layout is one this reader does not walk (fragmented MP4, laced or
 * unknown-size Matroska blocks): the caller then decodes instead.
 */
export interface TrackPackets {
  kind: "video" | "audio" | "other";
  /** Packet sizes in file (decode) order; null where the container does not give them one by one. */
  sizes: number[] | null;
  count: number;
}

type Reader = (at: number, length: number) => Promise<Buffer>;

const readerOf =
  (handle: FileHandle): Reader =>
  async (at, length) => {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, at);
    return buffer.subarray(0, bytesRead);
  };

/**
 * Buffers kept between checks for the Matroska walk, which reads every cluster of the clip: memory the process has
 * already touched is cheap to fill again, fresh memory costs a page fault per 4 KiB (a clip of 18 MB read back into
 * new buffers cost more than its whole write). One per check at a time; at most SPARE_BYTES each is kept.
 */
const spares: Buffer[] = [];
const SPARE_BYTES = 8 * 1024 * 1024;

/**
 * A reader whose answer is a view into one buffer, valid until its next read (the Matroska walk uses each read
 * before it reads again). Reads past SPARE_BYTES get a buffer of their own.
 */
function scratchReaderOf(handle: FileHandle, scratch: { buffer: Buffer }): Reader {
  return async (at, length) => {
    if (length > scratch.buffer.length) {
      scratch.buffer = Buffer.allocUnsafe(length <= SPARE_BYTES ? Math.max(length, 1024 * 1024) : length);
    }
    const { bytesRead } = await handle.read(scratch.buffer, 0, length, at);
    return scratch.buffer.subarray(0, bytesRead);
  };
}

/** Reads the packet table of a whole MP4/MOV (its top-level boxes already checked) or Matroska/WebM file. */
export async function readContainerPackets(
  handle: FileHandle,
  size: number,
  container: "mp4" | "matroska",
): Promise<TrackPackets[] | null> {
  if (container === "mp4") return mp4Packets(readerOf(handle), size);
  const scratch = { buffer: spares.pop() ?? Buffer.allocUnsafe(0) };
  try {
    return await matroskaPackets(scratchReaderOf(handle, scratch), size);
  } finally {
    if (scratch.buffer.length <= SPARE_BYTES) spares.push(scratch.buffer);
  }
}

// ---------- MP4 / MOV: moov > trak > mdia > (hdlr, minf > stbl > stsz)

async function mp4Packets(read: Reader, size: number): Promise<TrackPackets[] | null> {
  let at = 0;
  let moov: Buffer | null = null;
  while (at + 8 <= size) {
    const box = boxHeader(await read(at, 16), at, size);
    if (!box) return null;
    const { type, length } = box;
    if (type === "moof") return null; // fragmented: the samples are listed outside moov
    if (type === "moov") {
      if (length > 256 * 1024 * 1024) return null;
      moov = await read(at, length);
    }
    at += length;
  }
  if (!moov) return null;
  const tracks: TrackPackets[] = [];
  // A malformed box throws: the caller (verify.ts) then decodes instead.
  const root = boxes(moov).next().value;
  if (!root) return null;
  for (const trak of boxes(moov, root.body, root.end)) {
    if (trak.type !== "trak") continue;
    const mdia = child(moov, trak, "mdia");
    const hdlr = mdia && child(moov, mdia, "hdlr");
    const stbl = mdia && child(moov, mdia, "minf");
    const table = stbl && child(moov, stbl, "stbl");
    const stsz = table && child(moov, table, "stsz");
    if (!hdlr || !stsz || stsz.end - stsz.body < 12) return null;
    const handler = moov.toString("latin1", hdlr.body + 8, hdlr.body + 12);
    const fixed = moov.readUInt32BE(stsz.body + 4);
    const count = moov.readUInt32BE(stsz.body + 8);
    let sizes: number[] | null = null;
    if (fixed === 0) {
      if (stsz.body + 12 + 4 * count > stsz.end) return null;
      sizes = Array.from({ length: count }, (_, i) => moov.readUInt32BE(stsz.body + 12 + 4 * i));
    }
    tracks.push({ kind: handler === "vide" ? "video" : handler === "soun" ? "audio" : "other", sizes, count });
  }
  return tracks;
}

// ---------- Matroska / WebM: Segment > Tracks > TrackEntry (number, type); Segment > Cluster > (Simple)Block

const ID = MKV;
const UNKNOWN = UNKNOWN_SIZE;

/** Each `read` is used before the next one (its answer may be a view into a reused buffer). */
async function matroskaPackets(read: Reader, size: number): Promise<TrackPackets[] | null> {
  // Top level: the EBML header, then the Segment, whose size is known in a finished file.
  const top = await read(0, 64);
  const header = elementAt(top, 0, Number.MAX_SAFE_INTEGER);
  if (!header) return null;
  const segHead = await read(header.end, 16);
  const segment = elementAt(segHead, 0, Number.MAX_SAFE_INTEGER);
  if (!segment || segment.id !== ID.segment) return null;
  const segStart = header.end + segment.start;
  const segEnd = header.end + segment.end;
  if (segEnd > size) return null;
  const kinds = new Map<number, TrackPackets["kind"]>();
  const found = new Map<number, TrackPackets>();
  const add = (track: number, packetSize: number | null) => {
    let entry = found.get(track);
    if (!entry) found.set(track, (entry = { kind: "other", sizes: [], count: 0 }));
    entry.count++;
    if (packetSize === null) entry.sizes = null;
    else entry.sizes?.push(packetSize);
  };
  const block = (buf: Buffer, e: Element): boolean => {
    const track = vint(buf, e.start, false);
    if (!track || track.value === UNKNOWN) return false;
    const flags = buf[e.start + track.length + 2] ?? 0;
    const lacing = (flags >> 1) & 3;
    const payload = e.end - (e.start + track.length + 3);
    if (lacing === 0) add(track.value, payload);
    else {
      const frames = (buf[e.start + track.length + 3] ?? 0) + 1;
      for (let i = 0; i < frames; i++) add(track.value, null);
    }
    return true;
  };
  let at = segStart;
  while (at < segEnd) {
    const head = await read(at, 12);
    const e = elementAt(head, 0, Number.MAX_SAFE_INTEGER);
    if (!e) return null;
    const length = e.end;
    if (e.id === ID.tracks || e.id === ID.cluster) {
      if (length > 512 * 1024 * 1024) return null;
      const buf = await read(at, length);
      const body = elementAt(buf, 0, buf.length);
      if (!body) return null;
      for (const c of elements(buf, body.start, body.end)) {
        if (!c) return null;
        if (e.id === ID.tracks && c.id === ID.trackEntry) {
          let number = 0;
          let type = 0;
          for (const f of elements(buf, c.start, c.end)) {
            if (!f) return null;
            if (f.id === ID.trackNumber) number = uint(buf, f);
            if (f.id === ID.trackType) type = uint(buf, f);
          }
          kinds.set(number, type === 1 ? "video" : type === 2 ? "audio" : "other");
        } else if (c.id === ID.simpleBlock) {
          if (!block(buf, c)) return null;
        } else if (c.id === ID.blockGroup) {
          for (const g of elements(buf, c.start, c.end)) {
            if (!g) return null;
            if (g.id === ID.block && !block(buf, g)) return null;
          }
        }
      }
    }
    at += length;
  }
  if (at !== segEnd) return null;
  return [...kinds].map(([number, kind]) => ({ ...(found.get(number) ?? { sizes: [], count: 0 }), kind }));
}
