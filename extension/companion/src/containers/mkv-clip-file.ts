import { ClipSpool } from "./clip-spool";
import { el, elHeader, MKV, uintEl } from "./ebml";
import type { MkvBlock } from "./mkv-index";
import type { RangeReader } from "../source/range-reader";

/**
 * The WebM/MKV clip written while its source is read (mkv-copy.ts; write as you read, bounded memory):
 * each block's bytes go to the file (a ClipSpool) as the walk reaches them, behind a head of known length written
 * last. Which blocks the clip keeps is only decided once the walk is past the end (the one frame and audio rules),
 * so the blocks written past what it keeps are cut off the file's end, or, between two it keeps, turned into Void
 * elements of the same length (one byte each: the SimpleBlock and BlockGroup IDs are one byte, like Void's).
 * Cluster sizes (fixed 8-byte vints), the Cues and the head's sizes are filled in at the end.
 */

/** A new cluster at most this many timecode units after the last one began (a block's offset is 16-bit). */
const CLUSTER_SPAN = 30_000;
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
  private clusters: Cluster[] = [];
  private written = new Map<MkvBlock, Written>();

  private constructor(private readonly spool: ClipSpool) {}

  /** A new clip file in `outputDir` whose blocks start after a head of `headLength` bytes. */
  static async create(outputDir: string, headLength: number): Promise<MkvClipFile> {
    return new MkvClipFile(await ClipSpool.create(outputDir, headLength));
  }

  /** Whether `block` went into the file since the last restart. */
  has(block: MkvBlock): boolean {
    return this.written.has(block);
  }

  /** Starts over behind the head: a later keyframe turned out to be the clip's first. */
  async restart(): Promise<void> {
    await this.spool.restart();
    this.clusters = [];
    this.written.clear();
  }

  /**
   * Appends a block as track `number` at `out` (the clip's clock, the source's timecode units): its element header
   * copied with the track number and 16-bit time rewritten, its frame as views of what the reader received. A video
   * keyframe starts a cluster, as does a time too far from the cluster's for 16 bits.
   */
  async add(block: MkvBlock, reader: RangeReader, number: 1 | 2, out: number): Promise<void> {
    const spool = this.spool;
    const key = number === 1 && block.key;
    let cluster = this.clusters[this.clusters.length - 1];
    if (!cluster || key || out - cluster.time > CLUSTER_SPAN || out - cluster.time < -0x8000) {
      cluster = { at: spool.pos, time: out, key: key ? block : null };
      this.clusters.push(cluster);
      spool.append(elHeader(MKV.cluster, 0));
      spool.append(uintEl(MKV.timecode, out));
    }
    const { start, patch, end } = block;
    // A copy of the header (never the reader's bytes: it is rewritten).
    const head = Uint8Array.from(await reader.read(start, patch + 4));
    head[patch - start] = 0x80 | number;
    new DataView(head.buffer).setInt16(patch - start + 1, out - cluster.time);
    this.written.set(block, { at: spool.pos, length: end - start });
    spool.append(head);
    if (end > patch + 4) for (const v of await reader.pieces(patch + 4, end)) spool.append(v);
    spool.forget(reader, end);
    if (spool.full) await spool.flush();
  }

  /**
   * Keeps only `kept` (every one of them written), fills in the cluster sizes, the Cues and the head: the clip is
   * then complete.
   */
  async finish(kept: ReadonlySet<MkvBlock>, head: ClipHead, seconds: number): Promise<void> {
    let end = this.spool.from;
    for (const b of kept) {
      const w = this.written.get(b);
      if (!w) throw new Error("a block the clip keeps was not written");
      end = Math.max(end, w.at + w.length);
    }
    const fixes: { bytes: Uint8Array; at: number }[] = [];
    for (const [b, w] of this.written)
      if (!kept.has(b) && w.at < end) fixes.push({ bytes: Uint8Array.of(MKV.void), at: w.at });
    const clusters = this.clusters.filter((c) => c.at < end);
    const { dataStart } = head({ segmentLength: 0, cuesAt: 0, seconds });
    const points: Uint8Array[] = [];
    clusters.forEach((c, i) => {
      const next = clusters[i + 1]?.at ?? end;
      fixes.push({ bytes: elHeader(MKV.cluster, next - c.at - CLUSTER_HEADER), at: c.at });
      if (c.key && kept.has(c.key)) {
        const position = uintEl(MKV.cueClusterPosition, c.at - dataStart, 8);
        const track = el(MKV.cueTrackPositions, uintEl(MKV.cueTrack, 1), position);
        points.push(el(MKV.cuePoint, uintEl(MKV.cueTime, c.time), track));
      }
    });
    const cues = el(MKV.cues, ...points);
    fixes.push({ bytes: cues, at: end });
    const total = end + cues.length;
    const written = head({ segmentLength: total - dataStart, cuesAt: end - dataStart, seconds }).bytes;
    if (written.length !== this.spool.from) throw new Error("the clip's head changed length");
    fixes.push({ bytes: written, at: 0 });
    await this.spool.complete(fixes, total);
  }

  /** The complete clip takes the job's name. */
  place(out: string): Promise<void> {
    return this.spool.place(out);
  }

  /** Closes and removes the file unless it was placed (once: a plan closed after its write calls it again). */
  discard(): Promise<void> {
    return this.spool.discard();
  }
}
