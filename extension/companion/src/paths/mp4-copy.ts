// Long because: the MP4 byte copy path: seven named steps (open, fragments, packets, sound, tracks, fragmented and
// progressive plans) over one Walk state, which a split would have to pass around whole.
import { START_TOLERANCE_SECONDS, takesAsFirst } from "../../../../app/domain/frames";
import { checkWrittenClip } from "../check/written-clip";
import { choseOther, MARGIN_SECONDS, NotTaken, withCopyReaders, type ByteCopyOutcome } from "./copy-readers";
import { copiedAudioRun, planFrames, showsByStart, toSeconds, toTicks } from "./keyframes";
import { boxHeader, fourcc } from "../containers/mp4-boxes";
import {
  FragmentSamples,
  readMoof,
  readMovie,
  type Edit,
  type Mp4Movie,
  type Mp4Track,
  type SampleTable,
} from "../containers/mp4-tables";
import { clipSubsegments, readFragmentIndex, type FragmentIndex } from "../containers/sidx";
import { clipFtyp, mediaDuration, MOVIE_TIMESCALE, type ClipTrack } from "../containers/mp4-write";
import { FragmentStream, type Samples } from "../containers/fragment-stream";
import { Mp4ClipFile, moovRoom } from "../containers/mp4-clip-file";
import type { Packet } from "../source/probe";
import type { RangeReader, ReadStats } from "../source/range-reader";
import type { CutRequest, DirectPlan } from "./request";
import { chooseStrategy, copyRuledOut, copySpan } from "./strategy";
import type { CopiedPackets, Verified } from "../check/verify";

/**
 * The byte-level copy of a fragmented MP4 with a `sidx`, and of a DASH pair of them, YouTube's layout (the fragmented
 * MP4 byte copy of docs/decisions/002-cut-strategy.md): the clip's fragments' moofs are read by us (mp4-tables.ts) into
 * typed arrays, and the packets are chosen by the same rules as the mediabunny path (keyframe at or before the start,
 * planFrames/chooseStrategy, listAudio's rule). The clip is written while its fragments are read (fragment-stream.ts,
 * mp4-clip-file.ts), its moov written last, into room kept before the samples: each byte is read once and a few MB
 * are held, where mediabunny lists the whole span before it writes and reads a span past the range reader's cache
 * twice (a 120 s DASH clip: twice the bytes and twice the time on a 6 MB/s link). A progressive MP4 is the mediabunny
 * copy's: this path's own copy of it was no faster on that link. What this does not take is answered with `notTaken`
 * and goes on down the list of paths (paths/index.ts).
 */

const VIDEO_ENTRIES = new Set(["avc1", "avc3", "hvc1", "hev1"]);

/** Why this path does not take the request, known before anything is read; null when it may. */
export function mp4CopyRefusal(req: CutRequest): string | null {
  if (req.format !== "mp4" && req.format !== "mov") return `${req.format} output`;
  if (!/mov|mp4/.test(req.info.formatName)) return `the ${req.info.formatName} container`;
  const v = req.info.video?.codec;
  if (v !== "h264" && v !== "hevc") return `${v ?? "no"} video`;
  if (req.info.audio && req.info.audio.codec !== "aac") return `${req.info.audio.codec} audio`;
  if (req.strategy !== "copy" && req.strategy !== "auto") return `${req.strategy} asked`;
  return null;
}

export type Mp4CopyOutcome = ByteCopyOutcome<DirectPlan>;

export async function planMp4Copy(
  req: CutRequest,
  signal?: AbortSignal,
  onRead?: (fraction: number) => void,
): Promise<Mp4CopyOutcome> {
  const why = mp4CopyRefusal(req);
  if (why) return { notTaken: why };
  return withCopyReaders(signal, (readers) =>
    plan(req, (spec) => readers.open(spec), readers.close, readers.stats, onRead),
  );
}

/** One source file read for the clip: its movie header and its `sidx`. */
interface Opened {
  reader: RangeReader;
  movie: Mp4Movie;
  index: FragmentIndex;
}

async function openMovie(reader: RangeReader): Promise<Opened | string> {
  const read = (a: number, b: number) => reader.read(a, b);
  const index = await readFragmentIndex(read, reader.size);
  if (!index) return "no sidx (a progressive MP4, or fragments without an index)";
  const moov = await readMoov(reader);
  if (typeof moov === "string") return moov;
  const movie = readMovie(moov);
  if (!movie.fragmented) return "a progressive MP4 with a sidx";
  return { reader, movie, index };
}

/**
 * A fragmented file's samples of the clip: the subsegments the `sidx` gives for [start, end) (plus the margin), their
 * `moof`s read (the whole span is fetched in large parts, read ahead; it is the clip's data anyway).
 */
async function loadFragments(
  o: Opened,
  tracks: Mp4Track[],
  start: number,
  end: number,
  onRead?: (fraction: number) => void,
  walk?: {
    /**
     * After each fragment's moof and the header after it are read; `readSpan` starts the large parts read ahead
     * (called after the first fragment anyway).
     */
    onFragment: (lists: Map<number, FragmentSamples>, readSpan: () => void) => Promise<void>;
    /** Seconds from the presentation clock to the media clock the sidx counts in (the track's edit). */
    toMedia: number;
    /** Large parts are read ahead over the span only after the first fragment (its start frame decides the cut). */
    afterFirst: boolean;
    /** Subsegments to begin before the one the sidx gives for the start. */
    back: number;
  },
): Promise<string | null> {
  const toMedia = walk?.toMedia ?? 0;
  const span = clipSubsegments(o.index, start + toMedia, end + toMedia, MARGIN_SECONDS, walk?.back);
  if (!span) return "the clip's first fragment does not start with a keyframe";
  const stop = span.offset + span.length;
  let readSpan = walk?.afterFirst ? () => o.reader.expectSpan(span.offset, stop) : null;
  if (!readSpan) o.reader.expectSpan(span.offset, stop);
  const lists = new Map(tracks.map((t) => [t.id, new FragmentSamples()]));
  const spanNow = () => {
    readSpan?.();
    readSpan = null;
  };
  const handOn = async () => {
    await walk?.onFragment(lists, spanNow);
    spanNow();
  };
  let listed = false;
  for (let at = span.offset; at + 8 <= stop;) {
    const box = boxHeader(await o.reader.read(at, Math.min(stop, at + 16)), at, stop);
    if (!box) return "a malformed fragment";
    // A fragment's samples are handed on once the header after its moof (its mdat's) is read: the samples' writer
    // lets the reader forget everything before their end.
    if (listed) await handOn();
    listed = box.type === "moof";
    if (listed) readMoof(await o.reader.read(at, at + box.length), at, o.movie, lists);
    at += box.length;
    onRead?.((at - span.offset) / span.length);
  }
  if (listed) await handOn();
  for (const t of tracks) t.samples = lists.get(t.id)!.table();
  return null;
}

/** The media time the clip's first fragment begins at (the sidx's), or null when there is none. */
function clipFrom(index: FragmentIndex, start: number): number | null {
  const span = clipSubsegments(index, start, start, 0);
  return span ? (index.subsegments.find((x) => x.offset === span.offset)?.time ?? null) : null;
}

/** The moov's bytes, found by walking the top-level box headers (first or after the mdat). */
async function readMoov(reader: RangeReader): Promise<Uint8Array | string> {
  let at = 0;
  for (let n = 0; n < 64 && at + 8 <= reader.size; n++) {
    const box = boxHeader(await reader.read(at, Math.min(reader.size, at + 16)), at, reader.size);
    if (!box) return "a malformed top-level box";
    const { type, length } = box;
    if (type === "moof") return "a fragmented MP4";
    if (type === "moov") {
      if (length > 256 * 1024 * 1024) return "a moov over 256 MiB";
      return await reader.read(at, at + length);
    }
    at += length;
  }
  return "no moov";
}

/** How a track's media times map to presentation: the one edit ffmpeg and mediabunny both apply. */
function timeline(track: Mp4Track, movieTimescale: number): { mediaTime: number; shift: number } | string {
  let shift = 0;
  let i = 0;
  for (; i < track.edits.length && track.edits[i]!.mediaTime === -1; i++) {
    shift += track.edits[i]!.segmentDuration / movieTimescale;
  }
  const rest = track.edits.slice(i);
  if (rest.length > 1) return "an edit list with several edits";
  if (rest[0] && rest[0].rate !== 0x10000) return "an edit at another speed";
  return { mediaTime: rest[0]?.mediaTime ?? 0, shift };
}

/**
 * The first picture's sample starts a clean decode, as mediabunny's key check has it: an IDR picture (H.264), an IRAP
 * picture (HEVC), or an H.264 picture after a recovery point SEI that recovers at once and exactly (x264's open-GOP
 * keyframes).
 */
function startsClean(track: Mp4Track, bytes: Uint8Array): boolean {
  const hevc = track.codec === "hvc1" || track.codec === "hev1";
  const config = findBox(track.stsd, hevc ? "hvcC" : "avcC");
  if (config < 0) return false;
  const lengthSize = ((track.stsd[config + (hevc ? 21 : 4)] ?? 3) & 3) + 1;
  for (let at = 0; at + lengthSize < bytes.length;) {
    let length = 0;
    for (let k = 0; k < lengthSize; k++) length = length * 256 + bytes[at + k]!;
    const header = bytes[at + lengthSize]!;
    if (hevc) {
      const type = (header >> 1) & 0x3f;
      if (type < 32) return type >= 16 && type <= 23;
    } else {
      const type = header & 0x1f;
      if (type >= 1 && type <= 5) return type === 5;
      const nal = bytes.subarray(at + lengthSize, at + lengthSize + length);
      if (type === 6 && recoversAtOnce(nal)) return true;
    }
    at += lengthSize + length;
  }
  return false;
}

/** An H.264 SEI NAL unit holding a recovery point (payload 6) with recovery_frame_cnt 0 and exact_match_flag 1. */
function recoversAtOnce(nal: Uint8Array): boolean {
  // The payload without emulation prevention bytes (00 00 03 → 00 00).
  const rbsp: number[] = [];
  for (let i = 1; i < nal.length; i++) {
    if (nal[i] === 3 && rbsp.length >= 2 && rbsp[rbsp.length - 1] === 0 && rbsp[rbsp.length - 2] === 0) continue;
    rbsp.push(nal[i]!);
  }
  let pos = 0;
  while (pos < rbsp.length - 1) {
    let type = 0;
    while (pos < rbsp.length && rbsp[pos] === 255) type += rbsp[pos++]!;
    type += rbsp[pos++] ?? 0;
    let size = 0;
    while (pos < rbsp.length && rbsp[pos] === 255) size += rbsp[pos++]!;
    size += rbsp[pos++] ?? 0;
    if (type === 6) {
      // recovery_frame_cnt is ue(v): 0 is the single bit 1; exact_match_flag follows it.
      const first = rbsp[pos] ?? 0;
      return (first & 0x80) !== 0 && (first & 0x40) !== 0;
    }
    pos += size;
  }
  return false;
}

/** Where a child box's payload starts inside a sample entry's bytes (a byte search of a small box), or -1. */
function findBox(b: Uint8Array, type: string): number {
  for (let i = 4; i + 4 <= b.length; i++) if (fourcc(b, i) === type) return i + 4;
  return -1;
}

/** Video and sound within this many seconds of the end wait for the plan: only what the clip keeps is written. */
const HOLD_SECONDS = 1;

async function plan(
  req: CutRequest,
  openReader: (spec: CutRequest["input"]) => Promise<RangeReader>,
  close: () => Promise<void>,
  stats: () => ReadStats,
  onRead?: (fraction: number) => void,
): Promise<Mp4CopyOutcome> {
  // A fragmented source's clip file, written during the walk: removed unless the plan's write places it.
  let clip: Mp4ClipFile | null = null;
  try {
    const outcome = await planWith(req, openReader, close, stats, onRead, (file) => (clip = file));
    if ("notTaken" in outcome) await (clip as Mp4ClipFile | null)?.discard();
    return outcome;
  } catch (error) {
    await (clip as Mp4ClipFile | null)?.discard();
    if (error instanceof NotTaken) return { notTaken: error.message, chose: error.chose };
    throw error;
  }
}

/** What the planning steps share: the request, the video file and its track, and the sound as found so far. */
interface Walk {
  req: CutRequest;
  start: number;
  end: number;
  main: Opened;
  video: Mp4Track;
  /** The sidx counts on the media clock: the video edit's offset from the presentation one (and the 1 ms rule). */
  toMedia: number;
  /** The video's presentation times (its edit applied), in seconds. */
  vPts: (s: Samples, i: number) => number;
  /** The separate audio file (DASH), when there is one. */
  separate: CutRequest["input"] | null;
  /** The file and track the sound is read from (the video file's, or the separate one once loaded). */
  audioFile: Opened | null;
  audio: Mp4Track | undefined;
  /** The separate audio's head and fragments, loaded from `from` seconds (or why not). */
  loadAudio: (from: number) => Promise<string | { opened: Opened; track: Mp4Track | undefined }>;
  /** That load begun early, from the sidx's guess of the first fragment. */
  early: ReturnType<Walk["loadAudio"]> | null;
  /** The clip, written as its fragments are read. */
  stream: FragmentStream;
}

/** The clip's packets as the strategy rule chose them: the keyframe sample, the frame plan and a copy's end. */
interface Chosen {
  k: number;
  frames: ReturnType<typeof planFrames>;
  choice: Extract<ReturnType<typeof chooseStrategy>, { kind: "copy" }>;
  keySeconds: number;
}

/** The copied sound: a contiguous run of samples in decode order, and where its first one is shown. */
interface SoundRun {
  aFrom: number;
  aCount: number;
  aStart: number;
}

/**
 * Plans the byte copy in named steps: open the video file, walk a fragmented file's clip fragments (writing the clip
 * as they arrive), choose the packets, find the sound's run, build the clip's tracks, and make the plan.
 */
async function planWith(
  req: CutRequest,
  openReader: (spec: CutRequest["input"]) => Promise<RangeReader>,
  close: () => Promise<void>,
  stats: () => ReadStats,
  onRead: ((fraction: number) => void) | undefined,
  created: (clip: Mp4ClipFile) => void,
): Promise<Mp4CopyOutcome> {
  const walk = await openVideo(req, openReader);
  if (typeof walk === "string") return { notTaken: walk };
  const missing = await walkFragments(walk, onRead, created);
  if (missing) return { notTaken: missing };
  const chosen = choosePackets(walk);
  if ("notTaken" in chosen) return chosen;
  const sound = await soundRun(walk, chosen);
  if (typeof sound === "string") return { notTaken: sound };
  const clip = clipTracks(walk, chosen, sound);
  if (typeof clip === "string") return { notTaken: clip };
  const check = (out: string, o: Parameters<DirectPlan["write"]>[1]) =>
    checkWrittenClip(out, req.format, clip.known, clip.starts, { ffmpeg: o.ffmpeg, signal: o.signal });
  const planned = {
    ...copySpan(chosen.frames, chosen.choice),
    via: "byte copy of the fragments' tables",
    known: clip.known,
    stats,
  };
  return { plan: fragmentedPlan(walk, clip.tracks, planned, close, check) };
}

/** Step 1: the video file's movie header (and sidx), its video track and timeline; the separate audio's head beside. */
async function openVideo(
  req: CutRequest,
  openReader: (spec: CutRequest["input"]) => Promise<RangeReader>,
): Promise<Walk | string> {
  // A separate audio file's (DASH) head and sidx are read beside the video file's: both are on the critical path.
  const separate = req.input.audio && req.info.audio ? req.input.audio : null;
  const audioHead = separate ? openReader(separate).then(openMovie) : null;
  audioHead?.catch(() => undefined);
  const main = await openMovie(await openReader(req.input));
  if (typeof main === "string") return main;
  const start = req.startSeconds;
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const video = main.movie.tracks.find((t) => t.handler === "vide");
  const audioFile: Opened | null = req.input.audio ? null : main;
  const audio = req.info.audio && audioFile ? audioFile.movie.tracks.find((t) => t.handler === "soun") : undefined;
  if (!video || !VIDEO_ENTRIES.has(video.codec)) return `video sample entry ${video?.codec ?? "none"}`;
  const vt = timeline(video, main.movie.timescale);
  if (typeof vt === "string") return vt;
  // Its fragments are read from just before the picture's first fragment (its sound starts at the keyframe, which
  // that fragment begins with), beside the video's fragments; otherwise once the keyframe is known.
  const loadAudio = async (from: number) => {
    const opened = await audioHead!;
    if (typeof opened === "string") return `audio: ${opened}`;
    const track = opened.movie.tracks.find((t) => t.handler === "soun");
    const missing = track ? await loadFragments(opened, [track], Math.max(0, from), end) : null;
    return missing ? `audio: ${missing}` : { opened, track };
  };
  // The sidx counts on the media clock: the edit's offset from the presentation one (and the keyframe rule's 1 ms).
  const toMedia = vt.mediaTime / video.timescale - vt.shift + START_TOLERANCE_SECONDS;
  const firstFragment = clipFrom(main.index, start + toMedia);
  const early = separate && firstFragment !== null ? loadAudio(firstFragment - toMedia - 0.5) : null;
  early?.catch(() => undefined);
  const stream = new FragmentStream(main.reader, toTicks(end - HOLD_SECONDS));
  return {
    ...{ req, start, end, main, video, vPts: presented(video, vt), separate, audioFile, audio },
    ...{ toMedia, loadAudio, early, stream },
  };
}

/**
 * Step 2 (fragmented files): reads the clip's fragments, and from the first one with the keyframe on writes the clip
 * as they arrive. Stops early (NotTaken) when the strategy rule rules a copy out once the start's frame is known.
 * Answers why the fragments do not hold the clip, or null.
 */
async function walkFragments(
  w: Walk,
  onRead: ((fraction: number) => void) | undefined,
  created: (clip: Mp4ClipFile) => void,
): Promise<string | null> {
  const { req, main, video, vPts, start, end, separate } = w;
  const stream = w.stream;
  /** Subsegments the walk begins before the sidx's choice (1 when the start's frame was in the one before). */
  let back = 0;
  const own = w.audio;
  const onFragment = async (lists: Map<number, FragmentSamples>, readSpan: () => void) => {
    const v = lists.get(video.id)!;
    if (!stream.file) {
      // The keyframe is the first fragment's (the sidx's subsegment at or before the start begins with one).
      const k = keyframeBefore(
        v.size.length,
        (i) => vPts(v, i),
        (i) => v.key[i] === 1,
        start,
      );
      if (k < 0) throw new NotTaken("no keyframe in the clip's first fragment");
      // The sidx's times can be decode times: a start just before a fragment's first picture is shown by the
      // fragment before it (its last frames), which is then read from.
      if (!takesAsFirst(vPts(v, k), start) && back === 0) throw new StartEarlier();
      // The start's frame is in this fragment too: a clip auto will not copy is not read on.
      const keyTicks = toTicks(vPts(v, k));
      let onKey = true;
      for (let i = k + 1; i < v.size.length; i++) {
        const pts = toTicks(vPts(v, i));
        if (pts > keyTicks && showsByStart(pts, toTicks(start))) onKey = false;
      }
      const other = copyRuledOut(req, onKey);
      if (other) throw NotTaken.chose(other.kind);
      readSpan();
      if (!startsClean(video, await main.reader.read(v.offset[k]!, v.offset[k]! + v.size[k]!))) {
        throw new NotTaken("the keyframe is not an IDR picture");
      }
      const rates = [{ rate: rateOf(v, video.timescale), stsd: video.stsd }];
      if (separate) {
        let loaded = await (w.early ?? w.loadAudio(vPts(v, k) - 0.1));
        // Read again from the keyframe when the early read (from the sidx's guess) began after it.
        if (typeof loaded !== "string" && shownFirst(loaded) > vPts(v, k)) loaded = await w.loadAudio(vPts(v, k) - 0.1);
        if (typeof loaded === "string") throw new NotTaken(loaded);
        w.audioFile = loaded.opened;
        w.audio = loaded.track;
      }
      const track = w.audio;
      const audioFile = w.audioFile;
      const sound = track && audioFile ? timeline(track, audioFile.movie.timescale) : null;
      if (typeof sound === "string") throw new NotTaken(sound);
      if (track && audioFile && sound) {
        const samples = separate ? track.samples : lists.get(track.id)!;
        stream.sound(audioFile.reader, track.timescale, presented(track, sound), separate ? track.samples : null);
        rates.push({ rate: rateOf(samples, track.timescale), stsd: track.stsd });
      }
      const room = moovRoom(end - vPts(v, k) + HOLD_SECONDS, rates);
      stream.begin(await Mp4ClipFile.create(req.outputDir, clipFtyp(req.format, [video.codec]), room), k, vPts(v, k));
      created(stream.file!);
    }
    await stream.fragment(v, (i) => vPts(v, i), own ? lists.get(own.id)! : null);
  };
  const load = () =>
    loadFragments(main, own ? [video, own] : [video], start, end, onRead, {
      ...{ onFragment, toMedia: w.toMedia, back },
      afterFirst: copyRuledOut(req, false) !== null,
    });
  // At most twice: begun one subsegment earlier, the walk does not ask again (`back` is 1).
  return load().catch((error: unknown) => {
    if (!(error instanceof StartEarlier)) throw error;
    back = 1;
    return load();
  });
}

/** Step 3: the keyframe at or before the start, the frame plan over the listed video, and the rule's copy. */
function choosePackets(w: Walk): Chosen | { notTaken: string; chose?: "smart" | "reencode" } {
  const { req, video, vPts, start, end, stream } = w;
  const vs = video.samples;
  const isKey = (i: number) => !vs.key || vs.key[i] === 1;
  const k = keyframeBefore(vs.count, (i) => vPts(vs, i), isKey, start);
  if (k < 0) return { notTaken: "no keyframe" };
  if (stream && stream.key !== k) return { notTaken: "a keyframe past the first fragment's is the clip's" };
  // Metadata of the video from the keyframe in decode order through the margin past the end: the packet list the
  // plan functions take (on the 90 kHz clock, as the mediabunny copy builds it).
  const packets: Packet[] = [];
  for (let i = k; i < vs.count; i++) {
    const pts = toTicks(vPts(vs, i));
    packets.push({ pts, dts: pts, key: isKey(i) });
    if (vPts(vs, i) > end + MARGIN_SECONDS) break;
  }
  packets[0]!.key = true;
  const frames = planFrames(packets, toTicks(start), toTicks(end));
  if (frames.keyBefore !== packets[0]!.pts) return { notTaken: "the keyframe is not the first listed" };
  const choice = chooseStrategy(req, frames, packets);
  if (choice.kind !== "copy") return choseOther(choice.kind);
  return { k, frames, choice, keySeconds: vPts(vs, k) };
}

/**
 * Step 4: the sound, its sample entries checked, and the run of samples the copy's rule (copiesAudioPacket) keeps;
 * or why not.
 */
async function soundRun(w: Walk, c: Chosen): Promise<SoundRun | string> {
  const { audio, audioFile, video } = w;
  if (w.req.info.audio && audio?.codec !== "mp4a") return `audio sample entry ${audio?.codec ?? "none"}`;
  for (const t of [video, audio]) {
    if (t && new DataView(t.stsd.buffer, t.stsd.byteOffset).getUint32(12) !== 1) return "several sample descriptions";
  }
  const at = audio && audioFile ? timeline(audio, audioFile.movie.timescale) : null;
  if (typeof at === "string") return at;
  const run: SoundRun = { aFrom: 0, aCount: 0, aStart: 0 };
  if (audio && at) {
    const as = audio.samples;
    const shown = presented(audio, at);
    const aPts = (i: number) => shown(as, i);
    const found = copiedAudioRun(
      as.count,
      (i) => toTicks(aPts(i)),
      (i) => toTicks(as.duration[i]! / audio.timescale),
      c.frames.keyBefore,
      c.choice.endPts,
    );
    run.aFrom = found.from;
    run.aCount = found.count;
    if (run.aCount > 0) run.aStart = aPts(run.aFrom);
  }
  const unkept = w.stream.unkept(c.k + c.choice.packets, run.aFrom, run.aCount);
  if (unkept) return unkept;
  // A sample of no bytes has no place among the written ones.
  const empty = (s: SampleTable, from: number, count: number) => s.size.subarray(from, from + count).includes(0);
  if (empty(video.samples, c.k, c.choice.packets) || (audio && empty(audio.samples, run.aFrom, run.aCount)))
    return "a sample of no bytes";
  return run;
}

/**
 * Step 5: what the clip holds (the packets the check expects) and its tracks, with edit lists as ffmpeg's copy
 * writes them: the picture from the keyframe's composition time (B-frames decode earlier than they show), the sound
 * after an empty edit to where its first packet sits on the clip's clock.
 */
function clipTracks(
  w: Walk,
  c: Chosen,
  r: SoundRun,
): { known: CopiedPackets; tracks: ClipTrack[]; starts: { keyBytes: number; audioStart: number | null } } | string {
  const { video, audio, req } = w;
  const vs = video.samples;
  const known: CopiedPackets = {
    seconds: toSeconds(c.choice.endPts - c.frames.keyBefore),
    width: req.info.video!.width,
    height: req.info.video!.height,
    videoSizes: Array.from(vs.size.subarray(c.k, c.k + c.choice.packets)),
    sizesExact: true,
    audioPackets: audio ? r.aCount : null,
  };
  if (vs.cto[c.k]! < 0) return "a negative composition offset on the keyframe";
  const ms = (seconds: number) => Math.round(seconds * MOVIE_TIMESCALE);
  const tracks: ClipTrack[] = [
    {
      track: video,
      from: c.k,
      count: c.choice.packets,
      edits: [{ segmentDuration: ms(known.seconds), mediaTime: vs.cto[c.k]!, rate: 0x10000 }],
    },
  ];
  if (audio && r.aCount > 0) {
    const t: ClipTrack = { track: audio, from: r.aFrom, count: r.aCount, edits: [] };
    const lead = ms(r.aStart - c.keySeconds);
    const edits: Edit[] = lead > 0 ? [{ segmentDuration: lead, mediaTime: -1, rate: 0x10000 }] : [];
    edits.push({
      segmentDuration: ms(mediaDuration(t) / audio.timescale),
      mediaTime: audio.samples.cto[r.aFrom]!,
      rate: 0x10000,
    });
    t.edits = edits;
    tracks.push(t);
  }
  const starts = { keyBytes: vs.size[c.k]!, audioStart: r.aCount > 0 ? r.aStart - c.keySeconds : null };
  return { known, tracks, starts };
}

type Planned = Omit<DirectPlan, "write" | "close">;
type Check = (out: string, o: Parameters<DirectPlan["write"]>[1]) => Promise<Verified>;

/** Step 6, fragmented: the clip was written during the walk, but for what waited near the end. */
function fragmentedPlan(
  w: Walk,
  tracks: ClipTrack[],
  planned: Planned,
  close: () => Promise<void>,
  check: Check,
): DirectPlan {
  const stream = w.stream;
  const file = stream.file!;
  const readerOf = (t: ClipTrack) => (t.track === w.video ? w.main.reader : w.audioFile!.reader);
  return {
    ...planned,
    async close() {
      try {
        await close();
      } finally {
        await file.discard();
      }
    },
    async write(out, o) {
      o.signal?.throwIfAborted();
      // The samples it keeps are added.
      await stream.finish(tracks, readerOf);
      await file.place(out);
      o.onProgress?.(1);
      return check(out, o);
    },
  };
}

/** The keyframe shown last at or before `start` among `count` samples (a start before the first picture: the first). */
function keyframeBefore(
  count: number,
  pts: (i: number) => number,
  isKey: (i: number) => boolean,
  start: number,
): number {
  let k = -1;
  for (let i = 0; i < count; i++) {
    if (isKey(i) && takesAsFirst(pts(i), start) && (k < 0 || pts(i) >= pts(k))) k = i;
  }
  if (k < 0) for (let i = 0; i < count && k < 0; i++) if (isKey(i)) k = i;
  return k;
}

/** The first fragment began after the start's frame: the walk begins one subsegment earlier. */
class StartEarlier extends Error {}

/** When a loaded track's first sample is shown (-Infinity: nothing listed or no single edit). */
function shownFirst(l: { opened: Opened; track: Mp4Track | undefined }): number {
  const t = l.track;
  const edit = t ? timeline(t, l.opened.movie.timescale) : null;
  if (!t || t.samples.count === 0 || !edit || typeof edit === "string") return -Infinity;
  return presented(t, edit)(t.samples, 0);
}

/** Presentation time in seconds of a track's sample i, its one edit applied (`timeline`). */
const presented =
  (track: Mp4Track, edit: { mediaTime: number; shift: number }) =>
  (s: Samples, i: number): number =>
    (s.dts[i]! + s.cto[i]! - edit.mediaTime) / track.timescale + edit.shift;

/** Samples per second over what is listed (the moov's room is kept from it). */
function rateOf(s: Samples, timescale: number): number {
  let total = 0;
  const n = s.size.length;
  for (let i = 0; i < n; i++) total += s.duration[i]!;
  return total > 0 ? (n * timescale) / total : 0;
}
