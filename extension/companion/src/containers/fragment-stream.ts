import { copiesAudioPacket, toTicks } from "../paths/keyframes";
import type { Mp4ClipFile } from "./mp4-clip-file";
import type { FragmentSamples, SampleTable } from "./mp4-tables";
import type { ClipTrack } from "./mp4-write";
import type { RangeReader } from "../source/range-reader";

/** A track's samples as the walk gathers them (FragmentSamples) or as a finished table (SampleTable). */
export type Samples = Pick<SampleTable, "offset" | "size" | "dts" | "duration" | "cto"> | FragmentSamples;

/** The sound of the clip: in the video's fragments, or (DASH) its own file, listed whole before it is written. */
interface Sound {
  reader: RangeReader;
  timescale: number;
  /** Presentation time of sample i, in seconds. */
  pts: (s: Samples, i: number) => number;
  pair: Samples | null;
  /** The first sample at or after the keyframe (-1: not listed yet), and the next one to write. */
  first: number;
  next: number;
  held: boolean;
}

/**
 * A fragmented source's clip written as its fragments are read (mp4-copy.ts; write as you read, bounded
 * memory). From the keyframe the first fragment gives, each fragment's video and sound go to the clip file once its
 * moof is read, in the source's byte order (the reader forgets them once written); a DASH pair's sound is written
 * up to the picture's time. What lies within the hold of the end waits: where the copy stops is only known once the
 * walk is past the end (the closed prefix nearest the end, the audio rule); then only the samples the clip keeps are
 * added (`finish`). `unkept` tells the plan when what was written is not what it keeps: it then falls back.
 */
export class FragmentStream {
  file: Mp4ClipFile | null = null;
  /** The keyframe the file starts with (its index in the video's samples). */
  key = -1;
  private keyTicks = 0;
  private vNext = 0;
  private vHeld = false;
  private audio: Sound | null = null;
  /** Per reader, its first byte held back: what it must not forget. */
  private heldFrom = new Map<RangeReader, number>();

  constructor(
    private readonly videoReader: RangeReader,
    /** Samples presented from here on (90 kHz ticks) wait for the plan. */
    private readonly holdTicks: number,
  ) {}

  /** The clip's sound: `pair` is the DASH audio file's whole list, null when the sound is in the video's fragments. */
  sound(reader: RangeReader, timescale: number, pts: Sound["pts"], pair: Samples | null): void {
    this.audio = { reader, timescale, pts, pair, first: -1, next: 0, held: false };
  }

  begin(file: Mp4ClipFile, key: number, keySeconds: number): void {
    this.file = file;
    this.key = key;
    this.keyTicks = toTicks(keySeconds);
    this.vNext = key;
  }

  /** After each of the video file's moofs: writes what the lists gained, up to the hold. */
  async fragment(v: Samples, vPts: (i: number) => number, ownAudio: Samples | null): Promise<void> {
    const from = this.vNext;
    while (!this.vHeld && this.vNext < v.size.length) {
      if (toTicks(vPts(this.vNext)) < this.holdTicks) this.vNext++;
      else this.hold(this.videoReader, v.offset[this.vNext]!, () => (this.vHeld = true));
    }
    const runs = byteRuns(v, from, this.vNext);
    if (ownAudio) runs.push(...byteRuns(ownAudio, ...this.advanceAudio(ownAudio, Infinity)));
    runs.sort((a, b) => a.start - b.start);
    for (const r of runs) await this.add(this.videoReader, r);
    const pair = this.audio?.pair;
    if (pair && this.vNext > this.key) {
      for (const r of byteRuns(pair, ...this.advanceAudio(pair, toTicks(vPts(this.vNext - 1))))) {
        await this.add(this.audio!.reader, r);
      }
    }
  }

  /**
   * Why the written samples are not the start of what the clip keeps (video to `videoEnd`, the sound's run), or
   * null when they are.
   */
  unkept(videoEnd: number, aFrom: number, aCount: number): string | null {
    if (this.vNext > videoEnd) return "the copy stops before video already written";
    const a = this.audio;
    if (a && a.next > a.first && a.first >= 0 && (a.first !== aFrom || a.next > aFrom + aCount)) {
      return "the sound written is not the sound the clip keeps";
    }
    return null;
  }

  /** Adds what waited and the clip keeps, then the head: the file is complete. */
  async finish(tracks: ClipTrack[], readerOf: (t: ClipTrack) => RangeReader): Promise<void> {
    const [video, sound] = tracks;
    for (const r of byteRuns(video!.track.samples, this.vNext, video!.from + video!.count)) {
      await this.add(readerOf(video!), r);
    }
    if (sound) {
      const a = this.audio!;
      const from = a.first >= 0 && a.next > a.first ? a.next : sound.from;
      for (const r of byteRuns(sound.track.samples, from, sound.from + sound.count)) await this.add(readerOf(sound), r);
    }
    await this.file!.finish(tracks, readerOf);
  }

  /** The sound's samples to write next, presented before `upTo` (ticks) and before the hold: [from, to). */
  private advanceAudio(s: Samples, upTo: number): [number, number] {
    const a = this.audio!;
    const n = s.size.length;
    const pts = (i: number) => toTicks(a.pts(s, i));
    if (a.first < 0) {
      // The copy's audio rule (copiedAudioRun): from the first sample at or after the keyframe.
      while (a.next < n && pts(a.next) < this.keyTicks) a.next++;
      if (a.next === n) return [n, n];
      a.first = a.next;
    }
    const from = a.next;
    while (!a.held && a.next < n && pts(a.next) < upTo) {
      const duration = toTicks(s.duration[a.next]! / a.timescale);
      if (copiesAudioPacket(pts(a.next), duration, this.keyTicks, this.holdTicks)) a.next++;
      else this.hold(a.reader, s.offset[a.next]!, () => (a.held = true));
    }
    return [from, a.next];
  }

  private hold(reader: RangeReader, at: number, mark: () => void): void {
    mark();
    this.heldFrom.set(reader, Math.min(this.heldFrom.get(reader) ?? Infinity, at));
  }

  private async add(reader: RangeReader, r: { start: number; end: number }): Promise<void> {
    await this.file!.add(reader, r.start, r.end);
    this.file!.forget(reader, Math.min(r.end, this.heldFrom.get(reader) ?? Infinity));
  }
}

/** Samples [from, to) as runs of bytes that lie back to back in the source. */
function byteRuns(s: Samples, from: number, to: number): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  for (let i = from; i < to; i++) {
    // A sample of no bytes adds nothing (the plan does not take a clip that keeps one).
    if (s.size[i] === 0) continue;
    const start = s.offset[i]!;
    const last = runs[runs.length - 1];
    if (last && last.end === start) last.end += s.size[i]!;
    else runs.push({ start, end: start + s.size[i]! });
  }
  return runs;
}
