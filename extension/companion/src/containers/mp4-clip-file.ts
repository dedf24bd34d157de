import { ClipSpool } from "./clip-spool";
import { clipMoov, freeBox, mdatHeader, type ClipTrack } from "./mp4-write";
import type { RangeReader } from "../source/range-reader";

/**
 * The MP4 clip of a fragmented source, written while its fragments are read (mp4-copy.ts; write as you
 * read, bounded memory). A progressive source's sample tables are known before any media byte, so its header goes
 * first; a fragmented source's are only known once the walk is past the end. So this file is: the ftyp, room kept
 * for the moov (a `free` box), the mdat header's 16 bytes, then the samples as they arrive. At the end the moov goes into
 * the room when it fits (the usual case: the clip starts fast, the rest of the room stays free), or after the
 * samples when it does not (where plain ffmpeg's copy writes it). ffmpeg's `-moov_size` keeps room the same way.
 */

/** The mdat header's place: a 16-byte header past 4 GiB, otherwise an 8-byte one (the free box before it grows). */
const MDAT_HEADER = 16;
/**
 * Room per sample the clip may list: its stsz, stts, ctts and stss entries and its share of the chunk entries take
 * less when chunks hold a fragment's samples (a chunk of one sample takes more; the moov then goes at the end).
 */
const ROOM_PER_SAMPLE = 24;

/**
 * The room to keep for the moov of a clip of `seconds`, for tracks with these sample rates (per second, as the
 * fragments read so far have them) and sample entries: a quarter more samples than the rates give.
 */
export function moovRoom(seconds: number, tracks: { rate: number; stsd: Uint8Array }[]): number {
  let room = 2048;
  for (const t of tracks) room += 512 + t.stsd.length + Math.ceil(seconds * t.rate * 1.25) * ROOM_PER_SAMPLE;
  return room;
}

/** Source bytes [start, end) of one reader, written back to back from `out` in the payload. */
interface Run {
  start: number;
  end: number;
  out: number;
}

export class Mp4ClipFile {
  /** Per reader, the runs written, sorted by source offset. */
  private runs = new Map<RangeReader, Run[]>();

  private constructor(
    private readonly spool: ClipSpool,
    private readonly ftyp: Uint8Array,
  ) {}

  /** A new clip file in `outputDir`: `ftyp`, then `room` bytes kept for the moov (8 or more). */
  static async create(outputDir: string, ftyp: Uint8Array, room: number): Promise<Mp4ClipFile> {
    return new Mp4ClipFile(await ClipSpool.create(outputDir, ftyp.length + room + MDAT_HEADER), ftyp);
  }

  /** Appends the reader's bytes [start, end) (samples back to back in the source) as views of what it received. */
  async add(reader: RangeReader, start: number, end: number): Promise<void> {
    const pieces = await reader.pieces(start, end);
    const out = this.spool.pos - this.spool.from;
    for (const v of pieces) this.spool.append(v);
    const list = this.runs.get(reader) ?? [];
    this.runs.set(reader, list);
    let i = list.length;
    while (i > 0 && list[i - 1]!.start > start) i--;
    const before = list[i - 1];
    if (before && before.end === start && before.out + (before.end - before.start) === out) before.end = end;
    else list.splice(i, 0, { start, end, out });
    if (this.spool.full) await this.spool.flush();
  }

  /** `reader` may forget its bytes before `to` once what was added so far is handed to a write. */
  forget(reader: RangeReader, to: number): void {
    this.spool.forget(reader, to);
  }

  /** Where `reader`'s byte `o` is in the payload (from 0), or -1 when it was not written. */
  offsetOf(reader: RangeReader, o: number): number {
    const list = this.runs.get(reader) ?? [];
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = list[mid]!;
      if (o < r.start) hi = mid - 1;
      else if (o >= r.end) lo = mid + 1;
      else return r.out + (o - r.start);
    }
    return -1;
  }

  /**
   * Writes the head: the ftyp, the moov listing `tracks` (each track's samples read from `readerOf(track)`, every
   * one of them written) in the room or after the samples, and the mdat header. The clip is then complete.
   */
  async finish(tracks: ClipTrack[], readerOf: (t: ClipTrack) => RangeReader): Promise<void> {
    const payloadAt = this.spool.from;
    const payload = this.spool.pos - payloadAt;
    const at = (t: ClipTrack, o: number) => {
      const p = this.offsetOf(readerOf(t), o);
      if (p < 0) throw new Error("a sample the clip keeps was not written");
      return payloadAt + p;
    };
    const moov = clipMoov(tracks, at, payloadAt + payload > 0xffffffff);
    const header = mdatHeader(payload);
    const headerAt = payloadAt - header.length;
    // The moov in the room when what is left of it before the mdat header is nothing or a free box (8 bytes or more).
    const left = headerAt - this.ftyp.length - moov.length;
    const inRoom = left === 0 || left >= 8;
    const gapAt = this.ftyp.length + (inRoom ? moov.length : 0);
    const fixes = [
      { bytes: this.ftyp, at: 0 },
      { bytes: header, at: headerAt },
      ...(headerAt > gapAt ? [{ bytes: freeBox(headerAt - gapAt), at: gapAt }] : []),
    ];
    let length = payloadAt + payload;
    fixes.push({ bytes: moov, at: inRoom ? this.ftyp.length : length });
    if (!inRoom) length += moov.length;
    await this.spool.complete(fixes, length);
  }

  /** The complete clip takes the job's name. */
  place(out: string): Promise<void> {
    return this.spool.place(out);
  }

  /** Closes and removes the file unless it was placed. */
  discard(): Promise<void> {
    return this.spool.discard();
  }
}
