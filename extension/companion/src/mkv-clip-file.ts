import { open, type FileHandle } from "node:fs/promises";
import { el, elHeader, MKV, uintEl } from "./ebml";
import type { MkvBlock } from "./mkv-index";
import type { RangeReader } from "./range-reader";

/**
 * The WebM/MKV clip written while its source is read (mkv-copy.ts; issue 30: write as you read, bounded memory):
 * each block's bytes go to the file as the walk reaches them, behind a head of known length written last. Which
 * blocks the clip keeps is only decided once the walk is past the end (the one frame and audio rules), so the blocks
 * written past what it keeps are cut off the file's end, or, between two it keeps, turned into Void elements of the
 * same length (one byte each: the SimpleBlock and BlockGroup IDs are one byte, like Void's). Cluster sizes (fixed
 * 8-byte vints), the Cues and the head's sizes are filled in at the end.
 */

/** A new cluster at most this many timecode units after the last one began (a block's offset is 16-bit). */
const CLUSTER_SPAN = 30_000;
/** Bytes gathered before each write, and writes in flight at once (their pieces are held until they are done). */
const FLUSH = 1024 * 1024;
const IN_FLIGHT = 4;
const CLUSTER_HEADER = elHeader(MKV.cluster, 0).length;

interface Cluster {
  at: number;
  time: number;
  /** The video keyframe it starts with (a cue point when the clip keeps it). */
  key: MkvBlock | null;
}

interface Written {
  at: number;
  length: number;
}

/** The head for the finished clip: its length never depends on the values (fixed-width sizes and positions). */
export type ClipHead = (o: { segmentLength: number; cuesAt: number; seconds: number }) => {
  bytes: Uint8Array;
  /** Where the Segment's payload starts in the file (positions in SeekHead and Cues count from there). */
  dataStart: number;
};

export class MkvClipFile {
  private pos: number;
  private pending: Uint8Array[] = [];
  private pendingAt: number;
  private pendingBytes = 0;
  private inFlight: Promise<unknown>[] = [];
  private clusters: Cluster[] = [];
  private written = new Map<MkvBlock, Written>();
  /** Per reader, the end of the last block handed to a write: what it may forget. */
  private readTo = new Map<RangeReader, number>();
  private closed = false;

  private constructor(
    private readonly file: FileHandle,
    private readonly headLength: number,
  ) {
    this.pos = headLength;
    this.pendingAt = headLength;
  }

  static async create(path: string, headLength: number): Promise<MkvClipFile> {
    return new MkvClipFile(await open(path, "w"), headLength);
  }

  /** Whether `block` went into the file since the last restart. */
  has(block: MkvBlock): boolean {
    return this.written.has(block);
  }

  /** Starts over behind the head: a later keyframe turned out to be the clip's first. */
  async restart(): Promise<void> {
    await this.drain();
    this.pending = [];
    this.pendingBytes = 0;
    this.pos = this.headLength;
    this.pendingAt = this.headLength;
    this.clusters = [];
    this.written.clear();
  }

  /**
   * Appends a block as track `number` at `out` (the clip's clock, the source's timecode units): its element header
   * copied with the track number and 16-bit time rewritten, its frame as views of what the reader received. A video
   * keyframe starts a cluster, as does a time too far from the cluster's for 16 bits.
   */
  async add(block: MkvBlock, reader: RangeReader, number: 1 | 2, out: number): Promise<void> {
    const key = number === 1 && block.key;
    let cluster = this.clusters[this.clusters.length - 1];
    if (!cluster || key || out - cluster.time > CLUSTER_SPAN || out - cluster.time < -0x8000) {
      cluster = { at: this.pos, time: out, key: key ? block : null };
      this.clusters.push(cluster);
      this.push(elHeader(MKV.cluster, 0));
      this.push(uintEl(MKV.timecode, out));
    }
    const { start, patch, end } = block;
    // A copy of the header (never the reader's bytes: it is rewritten).
    const head = Uint8Array.from(await reader.read(start, patch + 4));
    head[patch - start] = 0x80 | number;
    new DataView(head.buffer).setInt16(patch - start + 1, out - cluster.time);
    this.written.set(block, { at: this.pos, length: end - start });
    this.push(head);
    if (end > patch + 4) for (const v of await reader.pieces(patch + 4, end)) this.push(v);
    this.readTo.set(reader, Math.max(this.readTo.get(reader) ?? 0, end));
    if (this.pendingBytes >= FLUSH) await this.flush();
  }

  /**
   * Keeps only `kept` (every one of them written), fills in the cluster sizes, the Cues and the head: the clip is
   * then complete.
   */
  async finish(kept: ReadonlySet<MkvBlock>, head: ClipHead, seconds: number): Promise<void> {
    await this.flush();
    await this.drain();
    let end = this.headLength;
    for (const b of kept) {
      const w = this.written.get(b);
      if (!w) throw new Error("a block the clip keeps was not written");
      end = Math.max(end, w.at + w.length);
    }
    const fixes: Promise<unknown>[] = [];
    const at = (bytes: Uint8Array, position: number) => fixes.push(this.file.write(bytes, 0, bytes.length, position));
    for (const [b, w] of this.written) if (!kept.has(b) && w.at < end) at(Uint8Array.of(MKV.void), w.at);
    const clusters = this.clusters.filter((c) => c.at < end);
    const { dataStart } = head({ segmentLength: 0, cuesAt: 0, seconds });
    const points: Uint8Array[] = [];
    clusters.forEach((c, i) => {
      const next = clusters[i + 1]?.at ?? end;
      at(elHeader(MKV.cluster, next - c.at - CLUSTER_HEADER), c.at);
      if (c.key && kept.has(c.key)) {
        const position = uintEl(MKV.cueClusterPosition, c.at - dataStart, 8);
        const track = el(MKV.cueTrackPositions, uintEl(MKV.cueTrack, 1), position);
        points.push(el(MKV.cuePoint, uintEl(MKV.cueTime, c.time), track));
      }
    });
    const cues = el(MKV.cues, ...points);
    at(cues, end);
    const total = end + cues.length;
    const written = head({ segmentLength: total - dataStart, cuesAt: end - dataStart, seconds }).bytes;
    if (written.length !== this.headLength) throw new Error("the clip's head changed length");
    at(written, 0);
    await Promise.all(fixes);
    await this.file.truncate(total);
  }

  /** Closes the file (once: a plan closed after its write closes it again). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.drain().catch(() => undefined);
    await this.file.close();
  }

  private push(bytes: Uint8Array) {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.pos += bytes.length;
  }

  /** Hands what is gathered to a write at its place; the readers forget what it holds (the write keeps it alive). */
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const write = this.file.writev(this.pending, this.pendingAt);
    this.inFlight.push(write);
    write.catch(() => undefined);
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingAt = this.pos;
    for (const [reader, to] of this.readTo) reader.release(0, to);
    if (this.inFlight.length >= IN_FLIGHT) await this.inFlight.shift();
  }

  private async drain(): Promise<void> {
    const all = this.inFlight;
    this.inFlight = [];
    await Promise.all(all);
  }
}
