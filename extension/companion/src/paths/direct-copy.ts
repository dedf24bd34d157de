// Long because: the mediabunny copy path (reading, refusals, packet choice and the sound's list) is one path's rule.
import {
  CustomSource,
  EncodedPacketSink,
  Input,
  Logging,
  MatroskaInputFormat,
  type AudioCodec,
  type EncodedPacket,
  type EncodedPacketSink as Sink,
  type InputAudioTrack,
  type InputVideoTrack,
  type Source,
  type VideoCodec,
} from "mediabunny";
import type { Format } from "../../../../app/domain/media";
import { START_TOLERANCE_SECONDS } from "../../../../app/domain/frames";
import { checkWrittenClip } from "../check/written-clip";
import { FORMATS, muxClip, readPackets, shifted } from "../containers/clip-mux";
import { canCopyAudio } from "./encode";
import { ClipError } from "../errors";
import { copiesAudioPacket, planFrames, toSeconds, toTicks, type CutFrames } from "./keyframes";
import type { Packet } from "../source/probe";
import { openRangeReader, sumStats, type RangeReader, type ReadStats } from "../source/range-reader";
import { clipSubsegments, readFragmentIndex } from "../containers/sidx";
import { MARGIN_SECONDS } from "./copy-readers";
import { demuxShiftSeconds, readMkvHead } from "../containers/mkv-index";
import type { CutRequest, DirectPlan } from "./request";
import { chooseStrategy, copySpan, type Choice } from "./strategy";
import type { CopiedPackets, Verified } from "../check/verify";

/**
 * Path 3, the mediabunny copy, in one pass and in this process (docs/decisions/002-cut-strategy.md): the container's
 * own index (MP4 sample tables, our reading of a DASH file's `sidx`, Matroska Cues) is read by mediabunny through the
 * guarded range reader, the packets are chosen before any media byte is read (the same snap rule, frame plan and
 * closed-prefix end as the staged copy), and then exactly those packets are read and written into the clip as they
 * arrive. What it does not take (a smart cut, a re-encode, what mediabunny reads differently from ffmpeg) is
 * refused with the reason, and the cut goes on down the list (paths/index.ts).
 */

/** Codecs each output container takes from mediabunny's writer (a subset of what ffmpeg's muxers take). */
const WRITABLE_VIDEO: Partial<Record<Format, readonly string[]>> = {
  mp4: ["h264", "hevc", "vp9", "av1"],
  mov: ["h264", "hevc"],
  mkv: ["h264", "hevc", "vp9", "av1", "vp8"],
  webm: ["vp9", "av1", "vp8"],
};

/** ffprobe's codec names against mediabunny's. */
const VIDEO_CODEC: Record<string, VideoCodec> = { h264: "avc", hevc: "hevc", vp9: "vp9", av1: "av1", vp8: "vp8" };
const AUDIO_CODEC: Record<string, AudioCodec> = {
  aac: "aac",
  opus: "opus",
  mp3: "mp3",
  vorbis: "vorbis",
  flac: "flac",
};

/**
 * What an in-process path cannot write, known before anything is read (every in-process path writes what
 * mediabunny's muxer would take, and reads the containers it reads); null when it may.
 */
export function writableRefusal(req: CutRequest): string | null {
  const video = req.info.video!;
  if (!(WRITABLE_VIDEO[req.format] ?? []).includes(video.codec))
    return `${video.codec} into ${req.format} is written by ffmpeg`;
  const audio = req.info.audio;
  if (audio && (!canCopyAudio(req.format, audio.codec) || !AUDIO_CODEC[audio.codec]))
    return `${audio.codec} audio is re-encoded for ${req.format}`;
  const container = req.info.formatName;
  if (!/mov|mp4|matroska|webm/.test(container)) return `the ${container} container is read by ffmpeg`;
  return null;
}

interface Opened {
  input: Input;
  reader: RangeReader;
  /** The fragment span (a DASH file's sidx), when the input is a view of the clip's fragments only. */
  viaIndex: boolean;
}

/** Opens one source: the guarded reader, and for fragmented MP4 with a `sidx` only the clip's fragments. */
async function openSource(
  req: CutRequest,
  spec: CutRequest["input"],
  start: number,
  end: number,
  signal?: AbortSignal,
  back = 0,
): Promise<Opened> {
  const reader = await openRangeReader(spec, signal);
  const source = (): Source =>
    new CustomSource({
      getSize: () => reader.size,
      read: (a, b) => reader.read(a, b),
      maxCacheSize: 4 * 1024 * 1024,
    });
  try {
    if (/mov|mp4/.test(req.info.formatName)) {
      const index = await readFragmentIndex((a, b) => reader.read(a, b), reader.size);
      const span = index && clipSubsegments(index, start, end, MARGIN_SECONDS, back);
      if (index && span) {
        reader.expectSpan(span.offset, span.offset + span.length);
        const whole = source();
        const init = new Input({ formats: FORMATS, source: whole.slice(0, index.initEnd) });
        const input = new Input({ formats: FORMATS, source: whole.slice(span.offset, span.length), initInput: init });
        return { input, reader, viaIndex: true };
      }
    }
    return { input: new Input({ formats: FORMATS, source: source() }), reader, viaIndex: false };
  } catch (error) {
    await reader.close();
    throw error;
  }
}

const ticks = (seconds: number) => toTicks(seconds);

/** The mediabunny reading of one request (made by planInProcess once, when the mediabunny copy is asked). */
export interface MediabunnyRead {
  /** How the trace names it: mediabunny, and why the container's byte copy did not take the clip. */
  via: string;
  videoTrack: InputVideoTrack;
  vSink: Sink;
  /** The keyframe at or before the start (verified in the bitstream). */
  key: EncodedPacket;
  /** Metadata of the video from that keyframe through the margin past the end, in decode order. */
  listed: EncodedPacket[];
  frames: CutFrames;
  choice: Choice;
  audioTrack: InputAudioTrack | null;
  audioShift: number;
  /** What mediabunny warned about while reading (a source it reads differently from ffmpeg is cut by ffmpeg). */
  warnings: string[];
  stats(): ReadStats;
  close(): Promise<void>;
}

/** The reading, or why it cannot be made (every reader it opened is then closed). */
export type MediabunnyReading = MediabunnyRead | { refused: string };

/**
 * Opens the source with mediabunny, lists the clip's video packets from the index and applies the strategy rule.
 * Refuses (without an error) what the ffmpeg path should cut instead; throws the guard's refusals and read failures
 * as they are (a private address is refused here as in the proxy). `stopWarnings` ends the warning watch (the
 * in-process planning calls it when no path needs the reading any more).
 */
export async function readWithMediabunny(
  req: CutRequest,
  via: string,
  signal?: AbortSignal,
): Promise<{ reading: MediabunnyReading; stopWarnings: () => void }> {
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const start = req.startSeconds;
  const opened: Opened[] = [];
  // mediabunny warns (on the console) where it reads a file differently from ffmpeg, e.g. an edit list with
  // several edits, of which it applies the first: such a source is cut by ffmpeg, and nothing is printed.
  const warnings: string[] = [];
  const stopWarnings = Logging.on("warn", (args) => void warnings.push(args.map(String).join(" ")));
  // Once: the path that takes the reading, or the planning when none does, closes it.
  let closing: Promise<void> | null = null;
  const closeAll = () =>
    (closing ??= (async () => {
      for (const o of opened) o.input.dispose();
      await Promise.all(opened.map((o) => o.reader.close()));
    })());
  const refuse = async (why: string) => {
    await closeAll();
    return { reading: { refused: why }, stopWarnings };
  };
  try {
    /** The video from `back` subsegments before the sidx's choice, and its keyframe at or before the start. */
    const openVideo = async (back: number) => {
      const source = await openSource(req, req.input, start, end, signal, back);
      opened.push(source);
      const track = await source.input.getPrimaryVideoTrack();
      const sink = track && new EncodedPacketSink(track);
      const key = sink && (await sink.getKeyPacket(start + START_TOLERANCE_SECONDS, { verifyKeyPackets: true }));
      return { source, track, sink, key };
    };
    let opening = await openVideo(0);
    if (!opening.key && opening.source.viaIndex) {
      // The sidx's times can be decode times: a start just before a fragment's first picture is shown by the
      // fragment before it, which is opened instead.
      const first = opened.pop()!;
      first.input.dispose();
      await first.reader.close();
      opening = await openVideo(1);
    }
    const { source: main, track: videoTrack } = opening;
    if (!videoTrack) return await refuse("mediabunny found no video track");
    const vCodec = await videoTrack.getCodec();
    if (vCodec !== VIDEO_CODEC[req.info.video!.codec]) return await refuse(`video codec ${vCodec}`);

    // Video: from the keyframe at or before the start (verified in the bitstream) through the margin past the end,
    // metadata only (an MP4's sample tables need no media bytes).
    const vSink = opening.sink!;
    // A start before the first picture (an audio priming offset) is the first picture, as in planFrames.
    const key = opening.key ?? (await vSink.getFirstKeyPacket({ verifyKeyPackets: true }));
    if (!key) return await refuse("no keyframe at or before the start");
    // A separate audio stream (DASH) is opened from the keyframe's time: its sound starts there, not at the start.
    const audioSource = req.input.audio
      ? await openSource(req, req.input.audio, Math.max(0, key.timestamp - 0.1), end, signal)
      : main;
    if (audioSource !== main) opened.push(audioSource);
    const audioTrack = req.info.audio ? await audioSource.input.getPrimaryAudioTrack() : null;
    if (req.info.audio && !audioTrack) return await refuse("mediabunny found no audio track");
    const aCodec = audioTrack ? await audioTrack.getCodec() : null;
    if (audioTrack && aCodec !== AUDIO_CODEC[req.info.audio!.codec]) return await refuse(`audio codec ${aCodec}`);
    const listed: EncodedPacket[] = [];
    for (let p: EncodedPacket | null = key; p; p = await vSink.getNextPacket(p, { metadataOnly: true })) {
      listed.push(p);
      if (p.timestamp > end + MARGIN_SECONDS) break;
    }
    const packets: Packet[] = listed.map((p) => ({ pts: ticks(p.timestamp), dts: ticks(p.timestamp), key: false }));
    listed.forEach((p, i) => (packets[i]!.key = p.type === "key"));
    packets[0]!.key = true;
    const frames = planFrames(packets, ticks(start), ticks(end));
    if (frames.keyBefore !== packets[0]!.pts) return await refuse("the keyframe is not the first listed");
    const choice = chooseStrategy(req, frames, packets);
    const audioShift = audioTrack ? await audioShiftOf(audioSource) : 0;
    const stats = () => sumStats(opened.map((o) => o.reader));
    const read: MediabunnyRead = {
      ...{ via, videoTrack, vSink, key, listed, frames, choice, audioTrack, audioShift, warnings, stats },
      close: closeAll,
    };
    return { reading: read, stopWarnings };
  } catch (error) {
    return { reading: await notRead(closeAll, error, signal), stopWarnings };
  }
}

/** A failure while planning from a reading: the guard's refusals and a cancel as they are, anything else a refusal. */
export async function notRead(
  close: () => Promise<void>,
  error: unknown,
  signal?: AbortSignal,
): Promise<{ refused: string }> {
  await close();
  if (error instanceof ClipError || signal?.aborted) throw error;
  return {
    refused: `the index could not be read in-process (${error instanceof Error ? error.message : String(error)})`,
  };
}

/** Path 3: the copy from mediabunny's reading, written by mediabunny's muxer. */
export async function planMediabunnyCopy(read: MediabunnyRead, req: CutRequest, signal?: AbortSignal) {
  const { choice, frames, listed, audioTrack, audioShift, key } = read;
  // A smart cut or a re-encode is a staged path's.
  if (choice.kind !== "copy") return { refused: `auto chose ${choice.kind}` };
  try {
    const video = listed.slice(0, choice.packets);
    const keyTicks = frames.keyBefore;
    const audio = audioTrack ? await listAudio(audioTrack, audioShift, keyTicks, choice.endPts) : [];
    const v = req.info.video!;
    const known: CopiedPackets = {
      seconds: toSeconds(choice.endPts - keyTicks),
      width: v.width,
      height: v.height,
      videoSizes: video.map((p) => p.byteLength),
      // mediabunny writes each packet's bytes as read (length-prefixed H.264 stays length-prefixed).
      sizesExact: true,
      audioPackets: audioTrack ? audio.length : null,
    };
    if (read.warnings.length > 0) {
      await read.close();
      return { refused: `mediabunny read it differently: ${read.warnings[0]}` };
    }
    const keySeconds = key.timestamp;
    const plan: DirectPlan = {
      ...copySpan(frames, choice),
      via: read.via,
      known,
      stats: read.stats,
      close: read.close,
      write: (out, o) =>
        writeClip(out, req.format, {
          videoTrack: read.videoTrack,
          vSink: read.vSink,
          video,
          audioTrack,
          aSink: audioTrack ? new EncodedPacketSink(audioTrack) : null,
          audio,
          origin: keySeconds,
          audioOrigin: keySeconds + audioShift,
          known,
          signal: o.signal,
          ffmpeg: o.ffmpeg,
          onProgress: o.onProgress,
        }),
    };
    return { plan };
  } catch (error) {
    return notRead(read.close, error, signal);
  }
}

/**
 * The audio packets a clip of picture [fromTicks, endPts) copies (the rule of staged/copy.ts): the first packet at or
 * after the first frame, and every packet whose middle is before the picture's end, in decode order. Opus in Matroska
 * is placed as ffmpeg's demuxer places it (`shift`, its CodecDelay).
 */
export async function listAudio(
  track: InputAudioTrack,
  shift: number,
  fromTicks: number,
  endPts: number,
): Promise<EncodedPacket[]> {
  const aSink = new EncodedPacketSink(track);
  const at = (p: EncodedPacket) => ticks(p.timestamp - shift);
  const audio: EncodedPacket[] = [];
  let p = await aSink.getPacket(toSeconds(fromTicks) + shift, { metadataOnly: true });
  p ??= await aSink.getFirstPacket({ metadataOnly: true });
  for (; p; p = await aSink.getNextPacket(p, { metadataOnly: true })) {
    if (at(p) >= endPts) break;
    if (copiesAudioPacket(at(p), ticks(p.duration), fromTicks, endPts)) audio.push(p);
  }
  return audio.sort((a, b) => a.sequenceNumber - b.sequenceNumber);
}

/** Where ffmpeg's demuxer puts the sound (demuxShiftSeconds: a Matroska track's CodecDelay, from our head read). */
async function audioShiftOf(opened: Opened): Promise<number> {
  if (!((await opened.input.getFormat()) instanceof MatroskaInputFormat)) return 0;
  const head = await readMkvHead(opened.reader, { withCues: false });
  const track = typeof head === "string" ? undefined : head.tracks.find((t) => t.type === 2);
  return track ? demuxShiftSeconds(track) : 0;
}

/**
 * Reads the chosen packets and writes them as they arrive (the writer's backpressure bounds what is held), then
 * checks the file: the packets written are the packets chosen (count, and each size), the first picture is the
 * planned keyframe and the sound starts where the plan put it.
 */
async function writeClip(
  out: string,
  format: Format,
  o: {
    videoTrack: InputVideoTrack;
    vSink: Sink;
    video: EncodedPacket[];
    audioTrack: InputAudioTrack | null;
    aSink: Sink | null;
    audio: EncodedPacket[];
    origin: number;
    audioOrigin: number;
    known: CopiedPackets;
    signal?: AbortSignal;
    ffmpeg: string;
    onProgress?: (fraction: number) => void;
  },
): Promise<Verified> {
  await muxClip(out, format, {
    videoTrack: o.videoTrack,
    videoConfig: (await o.videoTrack.getDecoderConfig())!,
    videoCount: o.video.length,
    video: shifted(readPackets(o.vSink, o.video), o.origin),
    audioTrack: o.audio.length > 0 ? o.audioTrack : null,
    audioCount: o.audio.length,
    audio: o.aSink ? shifted(readPackets(o.aSink, o.audio), o.audioOrigin) : null,
    signal: o.signal,
    onProgress: o.onProgress,
  });
  const starts = {
    keyBytes: o.video[0]!.byteLength,
    audioStart: o.audio[0] ? o.audio[0].timestamp - o.audioOrigin : null,
  };
  return checkWrittenClip(out, format, o.known, starts, { ffmpeg: o.ffmpeg, signal: o.signal });
}
