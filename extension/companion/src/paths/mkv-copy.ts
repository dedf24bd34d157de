// Long because: the Matroska byte copy path: the cue-guided read, packet choice and the writer's plan are one path's
// rule.
import { concat } from "../bytes";
import { takesAsFirst } from "../../../../app/domain/frames";
import { checkWrittenClip } from "../check/written-clip";
import { choseOther, NotTaken, withCopyReaders, type ByteCopyOutcome, type CopyReaders } from "./copy-readers";
import { el, elHeader, floatEl, idEl, MKV, textEl, uintEl } from "../containers/ebml";
import { copiedAudioRun, planFrames, showsByStart, toSeconds, toTicks } from "./keyframes";
import { MkvClipFile, type ClipHead } from "../containers/mkv-clip-file";
import {
  demuxShiftSeconds,
  readBlocks,
  readMkvHead,
  type CuePoint,
  type MkvBlock,
  type MkvFile,
  type MkvTrack,
} from "../containers/mkv-index";
import type { Packet } from "../source/probe";
import type { CutRequest, DirectPlan } from "./request";
import { chooseStrategy, copyRuledOut, copySpan } from "./strategy";
import type { CopiedPackets } from "../check/verify";

/**
 * The byte-level copy of a WebM/Matroska source into WebM or MKV (path 2 of docs/decisions/002-cut-strategy.md), the
 * counterpart of mp4-copy.ts: the head and Cues are read by us (mkv-index.ts); the Cues give the keyframe's cluster at
 * or before the start and the cluster past the end, so the clip's span is known before any media byte is read and is
 * fetched in large parts; its block headers give the packets, chosen by the same rules as every copy (planFrames,
 * chooseStrategy, copiedAudioRun); the clip is then the chosen blocks' bytes copied unchanged behind a header built
 * from the plan (the source's TrackEntry elements), in clusters whose timecodes start at the keyframe, with Cues. VP9
 * and VP8 only (their blocks are in presentation order; a keyframe is checked in the bitstream); anything else is
 * `notTaken` and goes on down the list of paths (paths/index.ts).
 */

const VIDEO_CODECS = new Set(["V_VP9", "V_VP8"]);
const AUDIO_CODECS = new Set(["A_OPUS", "A_VORBIS"]);
/**
 * Blocks listed past the end, in seconds: VP9/VP8 blocks are in presentation order, so the frame plan needs only a
 * few past it, and the sound interleaved up to there (the MP4 copies' second covers B-frame reordering).
 */
const MARGIN_SECONDS = 0.25;
/** The span read in large parts runs this share of the last cluster past the end's estimated place. */
const SPAN_SLACK = 0.15;

/** Why this path does not take the request, known before anything is read; null when it may. */
export function mkvCopyRefusal(req: CutRequest): string | null {
  if (req.format !== "webm" && req.format !== "mkv") return `${req.format} output`;
  if (!/matroska|webm/.test(req.info.formatName)) return `the ${req.info.formatName} container`;
  const v = req.info.video?.codec;
  if (v !== "vp9" && v !== "vp8") return `${v ?? "no"} video`;
  const a = req.info.audio?.codec;
  if (a && a !== "opus" && a !== "vorbis") return `${a} audio`;
  if (req.strategy !== "copy" && req.strategy !== "auto") return `${req.strategy} asked`;
  return null;
}

export async function planMkvCopy(
  req: CutRequest,
  signal?: AbortSignal,
  onRead?: (fraction: number) => void,
): Promise<ByteCopyOutcome<DirectPlan>> {
  const why = mkvCopyRefusal(req);
  if (why) return { notTaken: why };
  return withCopyReaders(signal, (readers) => plan(req, readers, onRead));
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
  for (const c of cues) if (takesAsFirst(at(c), seconds)) from = c;
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

async function plan(
  req: CutRequest,
  readers: CopyReaders,
  onRead?: (fraction: number) => void,
): Promise<ByteCopyOutcome<DirectPlan>> {
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
  // Large parts read ahead over the span, from the start; or, when auto copies only a clip that starts on a
  // keyframe, once the walk has seen that it does (otherwise they would be read for nothing).
  const onKeyOnly = copyRuledOut(req, false) !== null;
  const readSpan = () => main.reader.expectSpan(span.from.cluster, span.likelyEnd);
  if (!onKeyOnly) readSpan();
  const seconds = (file: MkvFile, time: number) => (time * file.timecodeScale) / 1e9;
  const keyCueSeconds = seconds(main, span.from.time);

  // The sound's track is known before anything is written: the clip's head (its length) depends on it.
  let audioFile: MkvFile | null = null;
  let audioTrack: MkvTrack | null = null;
  if (req.info.audio) {
    const file = audioHead ? await audioHead : main;
    if (typeof file === "string") return { notTaken: `audio: ${file}` };
    audioFile = file;
    audioTrack = file.tracks.find((t) => t.type === 2) ?? null;
    if (!audioTrack || !AUDIO_CODECS.has(audioTrack.codecId)) {
      return { notTaken: `audio codec ${audioTrack?.codecId ?? "none"}` };
    }
  }
  // Its clusters are read beside the video's, from its cue before the keyframe.
  const loadAudio = async (file: MkvFile, track: MkvTrack): Promise<MkvBlock[] | string> => {
    const cues = cuesOf(file, track);
    if (cues.length === 0) return "audio: no cue points";
    const s = cueSpan(file, cues, keyCueSeconds - 0.1, end + MARGIN_SECONDS, req.info.durationSeconds);
    file.reader.expectSpan(s.from.cluster, s.likelyEnd);
    const blocks = await readBlocks(file, s.from.cluster, s.to, (b) => seconds(file, b.time) > end + MARGIN_SECONDS);
    return typeof blocks === "string" ? `audio: ${blocks}` : blocks.filter((b) => b.track === track.number);
  };
  const pairLoad = separate && audioFile && audioTrack ? loadAudio(audioFile, audioTrack) : null;
  pairLoad?.catch(() => undefined);

  const head: ClipHead = (o) => clipHead(req.format, main.timecodeScale, video, audioTrack, o);
  const file = await MkvClipFile.create(req.outputDir, head({ segmentLength: 0, cuesAt: 0, seconds: 0 }).bytes.length);
  const discard = () => file.discard();
  /**
   * The walk of the clip's clusters, each block written as it is read once the keyframe is known (the keyframe at or
   * before the start: the cue's, or a later one the Cues do not list, which starts the file over); then the packets
   * the clip keeps, by the same rules as every copy, and the written blocks checked against them.
   */
  const walk = async (): Promise<ByteCopyOutcome<DirectPlan>> => {
    const startTick = toTicks(start);
    const ownAudio = separate ? null : (audioTrack?.number ?? null);
    const shift = audioTrack ? demuxShiftSeconds(audioTrack) : 0;
    const aScale = audioFile?.timecodeScale ?? main.timecodeScale;
    /** The sound's packet time on ffmpeg's demuxer clock (block time less CodecDelay), in ticks. */
    const audioPts = (b: MkvBlock) => toTicks(seconds(audioFile!, b.time) - shift);
    let key: MkvBlock | null = null;
    let keyTicks = 0;
    let keyByte = 0;
    let pastStart = false;
    /** The last picture shown by the start (planFrames's start frame). */
    let startShown = -1;
    let pair: MkvBlock[] = [];
    let pairNext = 0;
    const audioOut = (b: MkvBlock) => Math.max(0, Math.round((b.time * aScale) / main.timecodeScale) - key!.time);
    const addAudio = (b: MkvBlock) => file.add(b, separate ? audioFile!.reader : main.reader, 2, audioOut(b));
    /** The pair's sound up to `out` on the clip's clock (video first on a tie). */
    const addPairUntil = async (out: number) => {
      while (pairNext < pair.length && audioOut(pair[pairNext]!) < out) await addAudio(pair[pairNext++]!);
    };

    const spanLength = Math.max(1, span.likelyEnd - span.from.cluster);
    let shown = 0;
    const onBlock = async (b: MkvBlock) => {
      // The walk is the clip's download: its share of the span read (estimated: the span's end is a guess).
      if (onRead && b.end - shown > spanLength / 100) {
        shown = b.end;
        onRead(Math.min(0.99, (b.end - span.from.cluster) / spanLength));
      }
      if (b.track === video.number) {
        const pts = toTicks(seconds(main, b.time));
        const early = showsByStart(pts, startTick);
        const adopt = b.key && b.time >= span.from.time && (!key || (early && !pastStart));
        if (early) startShown = pts;
        if (!early && !pastStart) {
          // The start's frame is known: a clip auto will not copy is not read on (the cut that follows reads it).
          const other = key && copyRuledOut(req, startShown === keyTicks);
          if (other) throw NotTaken.chose(other.kind);
          if (onKeyOnly) readSpan();
        }
        if (!early) pastStart = true;
        if (adopt) {
          if (key) await file.restart();
          key = b;
          keyTicks = toTicks(seconds(main, b.time));
          keyByte = (await main.reader.read(b.patch + 4, b.patch + 5))[0]!;
          await file.add(b, main.reader, 1, 0);
          if (pairLoad) {
            const loaded = await pairLoad;
            if (typeof loaded === "string") throw new NotTaken(loaded);
            pair = loaded;
            pairNext = pair.findIndex((a) => audioPts(a) >= keyTicks);
            if (pairNext < 0) pairNext = pair.length;
          }
          return;
        }
        if (!key) return;
        await addPairUntil(b.time - key.time);
        await file.add(b, main.reader, 1, b.time - key.time);
      } else if (b.track === ownAudio && key && audioPts(b) >= keyTicks) {
        // Sound the file holds before its keyframe is not kept: a clip that needs it is not taken (below).
        await addAudio(b);
      }
    };
    // The walk ends once the picture and (in this file) the sound are both past the end and the margin.
    const beyond = new Set<number>();
    const past = (b: MkvBlock) => {
      if (seconds(main, b.time) > end + MARGIN_SECONDS) beyond.add(b.track);
      return beyond.has(video.number) && (ownAudio === null || beyond.has(ownAudio));
    };
    let blocks: MkvBlock[] | string;
    try {
      blocks = await readBlocks(main, span.from.cluster, span.to, past, onBlock);
    } catch (error) {
      if (error instanceof NotTaken) return { notTaken: error.message, chose: error.chose };
      throw error;
    }
    if (typeof blocks === "string") return { notTaken: blocks };
    if (!key) return { notTaken: "no keyframe in the cue's cluster" };
    const keyBlock: MkvBlock = key;
    if (pair.length > 0) await addPairUntil(Infinity);

    // Video blocks from the keyframe, in presentation (= decode) order, through the margin past the end.
    const vBlocks = blocks.filter((b) => b.track === video.number);
    let listed = vBlocks.slice(vBlocks.indexOf(keyBlock));
    const cut = listed.findIndex((b) => seconds(main, b.time) > end + MARGIN_SECONDS);
    if (cut > 0) listed = listed.slice(0, cut + 1);
    const packets: Packet[] = listed.map((b) => {
      const pts = toTicks(seconds(main, b.time));
      return { pts, dts: pts, key: b.key };
    });
    if (packets.some((p, i) => i > 0 && p.pts <= packets[i - 1]!.pts)) {
      return { notTaken: "video blocks out of presentation order" };
    }
    const frames = planFrames(packets, startTick, toTicks(end));
    if (frames.keyBefore !== keyTicks) return { notTaken: "the keyframe is not the clip's first" };
    const choice = chooseStrategy(req, frames, packets);
    if (choice.kind !== "copy") return choseOther(choice.kind);
    if (!startsClean(video.codecId, keyByte)) return { notTaken: "the keyframe is not a key frame in the bitstream" };
    const chosenVideo = listed.slice(0, choice.packets);

    // Audio by the copy's rule, on ffmpeg's demuxer clock.
    let chosenAudio: MkvBlock[] = [];
    if (audioFile && audioTrack) {
      const af = audioFile;
      const list = separate ? pair : blocks.filter((b) => b.track === ownAudio);
      const fallback = audioTrack.defaultDuration / 1e9;
      const duration = (i: number) => {
        const b = list[i]!;
        if (b.duration !== null) return seconds(af, b.duration);
        if (i + 1 < list.length) return seconds(af, list[i + 1]!.time - b.time);
        return fallback || (i > 0 ? seconds(af, b.time - list[i - 1]!.time) : 0);
      };
      const run = copiedAudioRun(
        list.length,
        (i) => audioPts(list[i]!),
        (i) => toTicks(duration(i)),
        keyTicks,
        choice.endPts,
      );
      chosenAudio = list.slice(run.from, run.from + run.count);
    }
    const kept = new Set([...chosenVideo, ...chosenAudio]);
    for (const b of kept)
      if (!file.has(b)) return { notTaken: "the file holds sound the clip keeps before its keyframe" };

    const known: CopiedPackets = {
      seconds: toSeconds(choice.endPts - keyTicks),
      width: req.info.video!.width,
      height: req.info.video!.height,
      videoSizes: chosenVideo.map((b) => b.payload),
      sizesExact: true,
      audioPackets: req.info.audio ? chosenAudio.length : null,
    };
    const firstAudio = chosenAudio[0];
    const audioStart = firstAudio ? (audioOut(firstAudio) * main.timecodeScale) / 1e9 : null;
    const plan: DirectPlan = {
      ...copySpan(frames, choice),
      via: "byte copy of the Matroska clusters",
      known,
      stats: readers.stats,
      async close() {
        try {
          await readers.close();
        } finally {
          await discard();
        }
      },
      async write(out, o) {
        o.signal?.throwIfAborted();
        await file.finish(kept, head, known.seconds);
        await file.place(out);
        o.onProgress?.(1);
        const starts = { keyBytes: keyBlock.payload, audioStart };
        return checkWrittenClip(out, req.format, known, starts, { ffmpeg: o.ffmpeg, signal: o.signal });
      },
    };
    return { plan };
  };
  try {
    const walked = await walk();
    if ("notTaken" in walked) await discard();
    return walked;
  } catch (error) {
    await discard();
    throw error;
  }
}

/**
 * The clip's head: EBML header, a Segment of `segmentLength`, SeekHead (Cues at `cuesAt`), Info (the source's
 * TimecodeScale, the clip's duration) and Tracks (TrackNumber 1 and 2, every other TrackEntry child copied).
 * Sizes and positions are fixed-width: the head's length is known before the clusters are written behind it.
 */
function clipHead(
  format: CutRequest["format"],
  scale: number,
  video: MkvTrack,
  audio: MkvTrack | null,
  o: { segmentLength: number; cuesAt: number; seconds: number },
): { bytes: Uint8Array; dataStart: number } {
  const entry = (t: MkvTrack, n: number) =>
    el(MKV.trackEntry, uintEl(MKV.trackNumber, n), uintEl(MKV.trackUid, n), ...t.rest);
  const info = el(
    MKV.info,
    uintEl(MKV.timecodeScale, scale),
    textEl(MKV.muxingApp, "ClipCut companion"),
    textEl(MKV.writingApp, "ClipCut companion"),
    floatEl(MKV.duration, (o.seconds * 1e9) / scale),
  );
  const tracks = el(MKV.tracks, entry(video, 1), ...(audio ? [entry(audio, 2)] : []));
  const seekHead = (positions: number[]) =>
    el(
      MKV.seekHead,
      ...[MKV.info, MKV.tracks, MKV.cues].map((id, i) =>
        el(MKV.seek, idEl(MKV.seekId, id), uintEl(MKV.seekPosition, positions[i]!, 8)),
      ),
    );
  const seekLength = seekHead([0, 0, 0]).length;
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
  const segment = elHeader(MKV.segment, o.segmentLength);
  const seek = seekHead([seekLength, seekLength + info.length, o.cuesAt]);
  return { bytes: concat([ebml, segment, seek, info, tracks]), dataStart: ebml.length + segment.length };
}
