import { open } from "node:fs/promises";
import type { DirectPlan } from "./direct-copy";
import { checkWrittenClip } from "./clip-mux";
import { withCopyReaders, type ByteCopyOutcome, type CopyReaders } from "./copy-readers";
import { el, elHeader, floatEl, idEl, MKV, textEl, uintEl } from "./ebml";
import { copiedAudioRun, planFrames, toSeconds, toTicks } from "./keyframes";
import {
  demuxShiftSeconds,
  readBlocks,
  readMkvHead,
  type CuePoint,
  type MkvBlock,
  type MkvFile,
  type MkvTrack,
} from "./mkv-index";
import type { Packet } from "./probe";
import type { RangeReader } from "./range-reader";
import type { CutRequest } from "./request";
import { chooseStrategy, copySpan } from "./strategy";
import type { CopiedPackets } from "./verify";

/**
 * The byte-level copy of a WebM/Matroska source into WebM or MKV (docs/decisions/002, 15), the counterpart of
 * mp4-copy.ts: the head and Cues are read by us (mkv-index.ts); the Cues give the keyframe's cluster at or before
 * the start and the cluster past the end, so the clip's span is known before any media byte is read and is fetched
 * in large parts; its block headers give the packets, chosen by the same rules as every copy (planFrames,
 * chooseStrategy, copiedAudioRun); the clip is then the chosen blocks' bytes copied unchanged behind a header built
 * from the plan (the source's TrackEntry elements), in clusters whose timecodes start at the keyframe, with Cues.
 * VP9 and VP8 only (their blocks are in presentation order; a keyframe is checked in the bitstream); anything else
 * is `notTaken` and goes through mediabunny.
 */

const VIDEO_CODECS = new Set(["V_VP9", "V_VP8"]);
const AUDIO_CODECS = new Set(["A_OPUS", "A_VORBIS"]);
/** A new output cluster at most this many timecode units after the last one began (a block's offset is 16-bit). */
const CLUSTER_SPAN = 30_000;
/** Bytes gathered before each write to the file. */
const FLUSH = 4 * 1024 * 1024;
/**
 * Blocks listed past the end, in seconds: VP9/VP8 blocks are in presentation order, so the frame plan needs only a
 * few past it, and the sound interleaved up to there (the MP4 copies' second covers B-frame reordering).
 */
const MARGIN_SECONDS = 0.25;
/** The span read in large parts runs this share of the last cluster past the end's estimated place. */
const SPAN_SLACK = 0.15;

/** Why this path does not take the request, known before anything is read; null when it may. */
function refusal(req: CutRequest): string | null {
  if (req.format !== "webm" && req.format !== "mkv") return `${req.format} output`;
  if (!/matroska|webm/.test(req.info.formatName)) return `the ${req.info.formatName} container`;
  const v = req.info.video?.codec;
  if (v !== "vp9" && v !== "vp8") return `${v ?? "no"} video`;
  const a = req.info.audio?.codec;
  if (a && a !== "opus" && a !== "vorbis") return `${a} audio`;
  if (req.strategy !== "copy" && req.strategy !== "auto") return `${req.strategy} asked`;
  return null;
}

export async function planMkvCopy(req: CutRequest, signal?: AbortSignal): Promise<ByteCopyOutcome<DirectPlan>> {
  const why = refusal(req);
  if (why) return { notTaken: why };
  return withCopyReaders(signal, (readers) => plan(req, readers));
}

/** The first frame of a block starts a clean decode: a VP9 key frame (not a shown existing one), a VP8 key frame. */
function startsClean(codecId: string, first: number): boolean {
  if (codecId === "V_VP8") return (first & 1) === 0;
  if (first >> 6 !== 2) return false;
  const profile = ((first >> 5) & 1) | (((first >> 4) & 1) << 1);
  const bit = profile === 3 ? 2 : 3;
  return ((first >> bit) & 1) === 0 && ((first >> (bit - 1)) & 1) === 0;
}

/**
 * The clip's span from the Cues: the cue at or before `seconds` (the first one when none is), where the walk may
 * stop (the cluster past `until`, or the Segment's end), and where its bytes likely end (`until`'s place in its
 * cluster, by time, plus a slack): the reader fetches up to there in large parts, and in small ones past it.
 */
function cueSpan(
  file: MkvFile,
  cues: CuePoint[],
  seconds: number,
  until: number,
  duration: number,
): { from: CuePoint; to: number; likelyEnd: number } {
  const at = (c: CuePoint) => (c.time * file.timecodeScale) / 1e9;
  let from = cues[0]!;
  for (const c of cues) if (at(c) <= seconds + 0.001) from = c;
  const next = cues.findIndex((c) => at(c) > until && c.cluster > from.cluster);
  const to = next >= 0 ? cues[next]!.cluster : file.segmentEnd;
  // The cluster holding `until` runs from its cue to the next cue (or, the last one, to the end at `duration`).
  const last = [...cues].reverse().find((c) => at(c) <= until) ?? from;
  const lastEnd = next >= 0 ? at(cues[next]!) : Math.max(duration, until);
  const share = Math.min(1, Math.max(0, (until - at(last)) / Math.max(0.001, lastEnd - at(last))));
  const likelyEnd = Math.min(to, last.cluster + Math.ceil((to - last.cluster) * Math.min(1, share + SPAN_SLACK)));
  return { from, to, likelyEnd: Math.max(likelyEnd, from.cluster + 1) };
}

/** A track's cue points (an audio-only file's cues may name no track: all of them). */
const cuesOf = (file: MkvFile, track: MkvTrack) => {
  const own = file.cues.filter((c) => c.track === track.number);
  return own.length > 0 ? own : file.cues;
};

async function plan(req: CutRequest, readers: CopyReaders): Promise<ByteCopyOutcome<DirectPlan>> {
  // A separate audio file's (YouTube's WebM pair) head and Cues are read beside the video file's.
  const separate = req.input.audio && req.info.audio ? req.input.audio : null;
  const audioHead = separate ? readers.open(separate).then((r) => readMkvHead(r)) : null;
  audioHead?.catch(() => undefined);
  const main = await readMkvHead(await readers.open(req.input));
  if (typeof main === "string") return { notTaken: main };
  const start = req.startSeconds;
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const video = main.tracks.find((t) => t.type === 1);
  if (!video || !VIDEO_CODECS.has(video.codecId)) return { notTaken: `video codec ${video?.codecId ?? "none"}` };
  const vCues = cuesOf(main, video);
  if (vCues.length === 0) return { notTaken: "no cue points" };
  const span = cueSpan(main, vCues, start, end + MARGIN_SECONDS, req.info.durationSeconds);
  main.reader.expectSpan(span.from.cluster, span.likelyEnd);
  const seconds = (file: MkvFile, time: number) => (time * file.timecodeScale) / 1e9;
  const keyCueSeconds = seconds(main, span.from.time);

  // Its clusters are read beside the video's, from its cue before the keyframe.
  const loadAudio = async (): Promise<{ file: MkvFile; blocks: MkvBlock[] } | string> => {
    const file = await audioHead!;
    if (typeof file === "string") return `audio: ${file}`;
    const track = file.tracks.find((t) => t.type === 2);
    if (!track) return "audio: no audio track";
    const cues = cuesOf(file, track);
    if (cues.length === 0) return "audio: no cue points";
    const s = cueSpan(file, cues, keyCueSeconds - 0.1, end + MARGIN_SECONDS, req.info.durationSeconds);
    file.reader.expectSpan(s.from.cluster, s.likelyEnd);
    const blocks = await readBlocks(file, s.from.cluster, s.to, (b) => seconds(file, b.time) > end + MARGIN_SECONDS);
    return typeof blocks === "string" ? `audio: ${blocks}` : { file, blocks };
  };
  const audioLoad = separate ? loadAudio() : null;
  audioLoad?.catch(() => undefined);
  // The walk ends once the picture and (in this file) the sound are both past the end and the margin.
  const ownAudio = separate ? null : (main.tracks.find((t) => t.type === 2)?.number ?? null);
  const beyond = new Set<number>();
  const past = (b: MkvBlock) => {
    if (seconds(main, b.time) > end + MARGIN_SECONDS) beyond.add(b.track);
    return beyond.has(video.number) && (ownAudio === null || beyond.has(ownAudio));
  };
  const blocks = await readBlocks(main, span.from.cluster, span.to, past);
  if (typeof blocks === "string") return { notTaken: blocks };

  // Video blocks from the cue's keyframe, in presentation (= decode) order, through the margin past the end.
  const vBlocks = blocks.filter((b) => b.track === video.number);
  let first = vBlocks.findIndex((b) => b.key && b.time >= span.from.time);
  if (first < 0) return { notTaken: "no keyframe in the cue's cluster" };
  let listed = vBlocks.slice(first);
  const cut = listed.findIndex((b) => seconds(main, b.time) > end + MARGIN_SECONDS);
  if (cut > 0) listed = listed.slice(0, cut + 1);
  const toPackets = (list: MkvBlock[]): Packet[] =>
    list.map((b) => {
      const pts = toTicks(seconds(main, b.time));
      return { pts, dts: pts, key: b.key };
    });
  let packets = toPackets(listed);
  if (packets.some((p, i) => i > 0 && p.pts <= packets[i - 1]!.pts)) {
    return { notTaken: "video blocks out of presentation order" };
  }
  let frames = planFrames(packets, toTicks(start), toTicks(end));
  if (frames.keyBefore !== packets[0]!.pts) {
    // A keyframe after the cue's (cues need not list every keyframe): start there.
    first = packets.findIndex((p) => p.key && p.pts === frames.keyBefore);
    if (first < 0) return { notTaken: "the keyframe is not listed" };
    listed = listed.slice(first);
    packets = toPackets(listed);
    frames = planFrames(packets, toTicks(start), toTicks(end));
  }
  const choice = chooseStrategy(req, frames, packets);
  if (choice.kind !== "copy") return { notTaken: `auto chose ${choice.kind}` };
  const key = listed[0]!;
  const keyByte = await main.reader.read(key.patch + 4, key.patch + 5);
  if (!startsClean(video.codecId, keyByte[0]!)) return { notTaken: "the keyframe is not a key frame in the bitstream" };
  const keyTicks = frames.keyBefore;
  const chosenVideo = listed.slice(0, choice.packets);

  // Audio by the copy's rule, on ffmpeg's demuxer clock (block time less CodecDelay).
  let audioFile: MkvFile | null = null;
  let audioTrack: MkvTrack | null = null;
  let aBlocks: MkvBlock[] = [];
  if (req.info.audio) {
    if (audioLoad) {
      const loaded = await audioLoad;
      if (typeof loaded === "string") return { notTaken: loaded };
      audioFile = loaded.file;
      audioTrack = loaded.file.tracks.find((t) => t.type === 2)!;
      aBlocks = loaded.blocks;
    } else {
      audioFile = main;
      audioTrack = main.tracks.find((t) => t.type === 2) ?? null;
      aBlocks = blocks;
    }
    if (!audioTrack || !AUDIO_CODECS.has(audioTrack.codecId)) {
      return { notTaken: `audio codec ${audioTrack?.codecId ?? "none"}` };
    }
  }
  let chosenAudio: MkvBlock[] = [];
  if (audioFile && audioTrack) {
    const file = audioFile;
    const track = audioTrack;
    const list = aBlocks.filter((b) => b.track === track.number);
    const shift = demuxShiftSeconds(track);
    const at = (i: number) => seconds(file, list[i]!.time) - shift;
    const fallback = track.defaultDuration / 1e9;
    const duration = (i: number) => {
      const b = list[i]!;
      if (b.duration !== null) return seconds(file, b.duration);
      if (i + 1 < list.length) return seconds(file, list[i + 1]!.time - b.time);
      return fallback || (i > 0 ? seconds(file, b.time - list[i - 1]!.time) : 0);
    };
    const run = copiedAudioRun(
      list.length,
      (i) => toTicks(at(i)),
      (i) => toTicks(duration(i)),
      keyTicks,
      choice.endPts,
    );
    chosenAudio = list.slice(run.from, run.from + run.count);
  }

  const known: CopiedPackets = {
    seconds: toSeconds(choice.endPts - keyTicks),
    width: req.info.video!.width,
    height: req.info.video!.height,
    videoSizes: chosenVideo.map((b) => b.payload),
    sizesExact: true,
    audioPackets: req.info.audio ? chosenAudio.length : null,
  };
  const layout = clipLayout(req.format, {
    main,
    video,
    videoBlocks: chosenVideo,
    audioFile,
    audioTrack: chosenAudio.length > 0 ? audioTrack : null,
    audioBlocks: chosenAudio,
    keyTime: key.time,
    seconds: known.seconds,
  });
  const firstAudio = layout.blocks.find((b) => b.number === 2);
  const audioStart = firstAudio ? (firstAudio.out * main.timecodeScale) / 1e9 : null;

  const result: DirectPlan = {
    ...copySpan(frames, choice),
    via: "byte copy of the Matroska clusters",
    known,
    stats: readers.stats,
    close: readers.close,
    async write(out, o) {
      await writeLayout(out, layout, o);
      const starts = { keyBytes: key.payload, audioStart };
      return checkWrittenClip(out, req.format, known, starts, { ffmpeg: o.ffmpeg, signal: o.signal });
    },
  };
  return { plan: result };
}

/** One block of the clip: where its bytes are, its track number and time in the clip. */
interface PlacedBlock {
  block: MkvBlock;
  reader: RangeReader;
  number: 1 | 2;
  /** Time on the clip's clock, in the output's timecode units. */
  out: number;
}

interface Layout {
  /** Everything before the first cluster: EBML header, Segment header, SeekHead, Info, Tracks. */
  head: Uint8Array;
  /** The clusters: their timecode and blocks. */
  clusters: { time: number; blocks: PlacedBlock[]; length: number }[];
  blocks: PlacedBlock[];
  cues: Uint8Array;
  total: number;
}

/**
 * The clip's layout, complete before any block is read: the blocks interleaved by time (each track in its own
 * order), a cluster at each keyframe, every size known, so the Segment, SeekHead and Cues are exact from the start.
 */
function clipLayout(
  format: CutRequest["format"],
  o: {
    main: MkvFile;
    video: MkvTrack;
    videoBlocks: MkvBlock[];
    audioFile: MkvFile | null;
    audioTrack: MkvTrack | null;
    audioBlocks: MkvBlock[];
    keyTime: number;
    seconds: number;
  },
): Layout {
  const scale = o.main.timecodeScale;
  const v: PlacedBlock[] = o.videoBlocks.map((block) => ({
    block,
    reader: o.main.reader,
    number: 1,
    out: block.time - o.keyTime,
  }));
  const aScale = o.audioFile?.timecodeScale ?? scale;
  const a: PlacedBlock[] = o.audioTrack
    ? o.audioBlocks.map((block) => ({
        block,
        reader: o.audioFile!.reader,
        number: 2,
        out: Math.max(0, Math.round((block.time * aScale) / scale) - o.keyTime),
      }))
    : [];
  const blocks: PlacedBlock[] = [];
  for (let i = 0, j = 0; i < v.length || j < a.length;) {
    if (j >= a.length || (i < v.length && v[i]!.out <= a[j]!.out)) blocks.push(v[i++]!);
    else blocks.push(a[j++]!);
  }
  const clusters: Layout["clusters"] = [];
  for (const b of blocks) {
    const last = clusters[clusters.length - 1];
    if (!last || (b.number === 1 && b.block.key) || b.out - last.time > CLUSTER_SPAN) {
      clusters.push({ time: b.out, blocks: [b], length: 0 });
    } else last.blocks.push(b);
  }
  for (const c of clusters) {
    c.length = uintEl(MKV.timecode, c.time).length + c.blocks.reduce((s, b) => s + b.block.end - b.block.start, 0);
  }
  const entry = (t: MkvTrack, n: number) =>
    el(MKV.trackEntry, uintEl(MKV.trackNumber, n), uintEl(MKV.trackUid, n), ...t.rest);
  const info = el(
    MKV.info,
    uintEl(MKV.timecodeScale, scale),
    textEl(MKV.muxingApp, "ClipCut companion"),
    textEl(MKV.writingApp, "ClipCut companion"),
    floatEl(MKV.duration, (o.seconds * 1e9) / scale),
  );
  const tracks = el(MKV.tracks, entry(o.video, 1), ...(o.audioTrack ? [entry(o.audioTrack, 2)] : []));
  const seekHead = (positions: number[]) =>
    el(
      MKV.seekHead,
      ...[MKV.info, MKV.tracks, MKV.cues].map((id, i) =>
        el(MKV.seek, idEl(MKV.seekId, id), uintEl(MKV.seekPosition, positions[i]!, 8)),
      ),
    );
  const seekLength = seekHead([0, 0, 0]).length;
  const clustersAt = seekLength + info.length + tracks.length;
  let at = clustersAt;
  const points: Uint8Array[] = [];
  for (const c of clusters) {
    if (c.blocks[0]!.number === 1 && c.blocks[0]!.block.key) {
      points.push(
        el(
          MKV.cuePoint,
          uintEl(MKV.cueTime, c.time),
          el(MKV.cueTrackPositions, uintEl(MKV.cueTrack, 1), uintEl(MKV.cueClusterPosition, at, 8)),
        ),
      );
    }
    at += elHeader(MKV.cluster, c.length).length + c.length;
  }
  const cues = el(MKV.cues, ...points);
  const segmentLength = at + cues.length;
  const ebml = el(
    MKV.ebml,
    uintEl(MKV.ebmlVersion, 1),
    uintEl(MKV.ebmlReadVersion, 1),
    uintEl(MKV.ebmlMaxIdLength, 4),
    uintEl(MKV.ebmlMaxSizeLength, 8),
    textEl(MKV.docType, format === "webm" ? "webm" : "matroska"),
    uintEl(MKV.docTypeVersion, 4),
    uintEl(MKV.docTypeReadVersion, 2),
  );
  const segment = elHeader(MKV.segment, segmentLength);
  const seek = seekHead([seekLength, seekLength + info.length, at]);
  const head = new Uint8Array(ebml.length + segment.length + clustersAt);
  let p = 0;
  for (const part of [ebml, segment, seek, info, tracks]) {
    head.set(part, p);
    p += part.length;
  }
  return { head, clusters, blocks, cues, total: head.length + segmentLength - clustersAt };
}

/**
 * Writes the layout: each block's bytes as read (a view of the reader's response where it lies in one piece), its
 * track number and 16-bit time rewritten for the clip, gathered into large writes.
 */
async function writeLayout(
  out: string,
  layout: Layout,
  o: { signal?: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<void> {
  const file = await open(out, "w");
  try {
    let pending: Uint8Array[] = [layout.head];
    let held = layout.head.length;
    let done = 0;
    const flush = async () => {
      await file.writev(pending);
      done += held;
      pending = [];
      held = 0;
      o.onProgress?.(Math.min(1, done / layout.total));
    };
    const push = (b: Uint8Array) => {
      pending.push(b);
      held += b.length;
    };
    for (const c of layout.clusters) {
      o.signal?.throwIfAborted();
      push(elHeader(MKV.cluster, c.length));
      push(uintEl(MKV.timecode, c.time));
      for (const b of c.blocks) {
        const { start, patch, end } = b.block;
        // The element's header up to the block's track number and time (copied: it is rewritten), then its frame.
        // A copy (never the reader's bytes: `slice` on a Node Buffer would be a view of them).
        const head = new Uint8Array(await b.reader.read(start, patch + 4));
        head[patch - start] = 0x80 | b.number;
        new DataView(head.buffer).setInt16(patch - start + 1, b.out - c.time);
        push(head);
        if (end > patch + 4) for (const v of await b.reader.pieces(patch + 4, end)) push(v);
        if (held >= FLUSH) await flush();
      }
    }
    push(layout.cues);
    await flush();
  } finally {
    await file.close();
  }
}
