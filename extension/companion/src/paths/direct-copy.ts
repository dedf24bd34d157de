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
import { checkWrittenClip } from "../check/written-clip";
import { FORMATS, muxClip, readPackets, shifted } from "../containers/clip-mux";
import { canCopyAudio } from "./encode";
import { ClipError } from "../errors";
import { copiesAudioPacket, planFrames, toSeconds, toTicks, type CutFrames } from "./keyframes";
import type { MediaInfo, Packet } from "../source/probe";
import { openRangeReader, sumStats, type RangeReader, type ReadStats } from "../source/range-reader";
import type { CutRequest } from "./request";
import { clipSubsegments, readFragmentIndex } from "../containers/sidx";
import { MARGIN_SECONDS } from "./copy-readers";
import { planMkvCopy } from "./mkv-copy";
import { demuxShiftSeconds, readMkvHead } from "../containers/mkv-index";
import { planMp4Copy } from "./mp4-copy";
import { planSmartDirect, smartRefusal } from "./direct-smart";
import { chooseStrategy, copySpan, reencodeReasons } from "./strategy";
import type { CopiedPackets, Verified } from "../check/verify";

/**
 * The copy path in one pass and in this process (docs/decisions/002, 11): the container's own index
 * (MP4 sample tables, our reading of a DASH file's `sidx`, Matroska Cues) is read through the guarded range reader,
 * the packets are chosen before any media byte is read (the same snap rule, frame plan and closed-prefix end as the
 * staged copy), and then exactly those packets are read and written into the clip as they arrive. What this path
 * does not take (a container mediabunny does not read, a codec the output cannot hold, audio that must be
 * re-encoded, a cut `auto` makes smart) is refused with the reason, and the cut takes the ffmpeg path.
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

/** Why the in-process copy cannot take this request, known before anything is read; null when it may. */
export function directRefusal(req: CutRequest): string | null {
  const video = req.info.video;
  if (!video) return "no picture";
  if (req.strategy === "reencode") return "reencode asked";
  // A smart cut in this process is H.264 into MP4/MOV (direct-smart.ts); VP9's stays on the staged path.
  if (req.strategy === "smart" && smartRefusal(req)) return `smart asked: ${smartRefusal(req)}`;
  if (reencodeReasons(req).length > 0) return `re-encode needed (${reencodeReasons(req).join(", ")})`;
  if (!(WRITABLE_VIDEO[req.format] ?? []).includes(video.codec))
    return `${video.codec} into ${req.format} is written by ffmpeg`;
  const audio = req.info.audio;
  if (audio && (!canCopyAudio(req.format, audio.codec) || !AUDIO_CODEC[audio.codec]))
    return `${audio.codec} audio is re-encoded for ${req.format}`;
  const container = req.info.formatName;
  if (!/mov|mp4|matroska|webm/.test(container)) return `the ${container} container is read by ffmpeg`;
  return null;
}

export interface DirectPlan {
  strategy: "copy" | "smart";
  /** How the clip is read and written (the trace names it): the MP4 byte copy, or mediabunny and why. */
  via?: string;
  /** Where the picture starts (the keyframe, or a smart cut's start frame) and ends, in the source's seconds. */
  startSeconds: number;
  endSeconds: number;
  snapped: boolean;
  reason: string;
  frames: CutFrames;
  known: CopiedPackets;
  /** Writes the clip to `out`; the written file is checked against the plan before it resolves. */
  write(
    out: string,
    o: { signal?: AbortSignal; ffmpeg: string; onProgress?: (fraction: number) => void },
  ): Promise<Verified>;
  /** Stops every read (the plan holds the source open until then). */
  close(): Promise<void>;
  /** Requests and bytes read so far, and the most bytes held at once. */
  stats(): ReadStats;
}

export type DirectOutcome = { plan: DirectPlan } | { refused: string };

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

/**
 * Reads the index and plans the copy. Refuses (without an error) what the ffmpeg path should cut instead; throws
 * the guard's refusals and read failures as they are (a private address is refused here as in the proxy).
 */
export async function planDirectCopy(
  req: CutRequest,
  signal?: AbortSignal,
  probed?: Promise<MediaInfo>,
  onRead?: (fraction: number) => void,
): Promise<DirectOutcome> {
  const refusal = directRefusal(req);
  if (refusal) return { refused: refusal };
  // The copy is made from our own reading of the container's index, its bytes copied in ranges: MP4's sample
  // tables (mp4-copy.ts, decision 002, 14), Matroska's Cues and clusters (mkv-copy.ts, 15); what that does not
  // take goes through mediabunny below, unchanged.
  const matroska = /matroska|webm/.test(req.info.formatName);
  const fast = matroska ? await planMkvCopy(req, signal, onRead) : await planMp4Copy(req, signal, onRead);
  if ("plan" in fast) return fast;
  // The strategy rule ruled the copy out, not the container: mediabunny's plan would choose the same after reading
  // the clip again, so it is asked only for a smart cut it makes itself (H.264 into MP4/MOV).
  if (fast.chose === "reencode") return { refused: "auto chose reencode" };
  const staged = fast.chose === "smart" ? smartRefusal(req) : null;
  if (staged) return { refused: `auto chose smart: ${staged}` };
  const via = `mediabunny (byte copy not taken: ${fast.notTaken})`;
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const start = req.startSeconds;
  const opened: Opened[] = [];
  // mediabunny warns (on the console) where it reads a file differently from ffmpeg, e.g. an edit list with
  // several edits, of which it applies the first: such a source is cut by ffmpeg, and nothing is printed.
  const warnings: string[] = [];
  const stopListening = Logging.on("warn", (args) => void warnings.push(args.map(String).join(" ")));
  const closeAll = async () => {
    for (const o of opened) o.input.dispose();
    await Promise.all(opened.map((o) => o.reader.close()));
  };
  try {
    /** The video from `back` subsegments before the sidx's choice, and its keyframe at or before the start. */
    const openVideo = async (back: number) => {
      const source = await openSource(req, req.input, start, end, signal, back);
      opened.push(source);
      const track = await source.input.getPrimaryVideoTrack();
      const sink = track && new EncodedPacketSink(track);
      const key = sink && (await sink.getKeyPacket(start + 0.001, { verifyKeyPackets: true }));
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
    if (!videoTrack) return await refuse(closeAll, "mediabunny found no video track");
    const vCodec = await videoTrack.getCodec();
    if (vCodec !== VIDEO_CODEC[req.info.video!.codec]) return await refuse(closeAll, `video codec ${vCodec}`);

    // Video: from the keyframe at or before the start (verified in the bitstream) through the margin past the end,
    // metadata only (an MP4's sample tables need no media bytes).
    const vSink = opening.sink!;
    // A start before the first picture (an audio priming offset) is the first picture, as in planFrames.
    const key = opening.key ?? (await vSink.getFirstKeyPacket({ verifyKeyPackets: true }));
    if (!key) return await refuse(closeAll, "no keyframe at or before the start");
    // A separate audio stream (DASH) is opened from the keyframe's time: its sound starts there, not at the start.
    const audioSource = req.input.audio
      ? await openSource(req, req.input.audio, Math.max(0, key.timestamp - 0.1), end, signal)
      : main;
    if (audioSource !== main) opened.push(audioSource);
    const audioTrack = req.info.audio ? await audioSource.input.getPrimaryAudioTrack() : null;
    if (req.info.audio && !audioTrack) return await refuse(closeAll, "mediabunny found no audio track");
    const aCodec = audioTrack ? await audioTrack.getCodec() : null;
    if (audioTrack && aCodec !== AUDIO_CODEC[req.info.audio!.codec])
      return await refuse(closeAll, `audio codec ${aCodec}`);
    const listed: EncodedPacket[] = [];
    for (let p: EncodedPacket | null = key; p; p = await vSink.getNextPacket(p, { metadataOnly: true })) {
      listed.push(p);
      if (p.timestamp > end + MARGIN_SECONDS) break;
    }
    const packets: Packet[] = listed.map((p) => ({ pts: ticks(p.timestamp), dts: ticks(p.timestamp), key: false }));
    listed.forEach((p, i) => (packets[i]!.key = p.type === "key"));
    packets[0]!.key = true;
    const frames = planFrames(packets, ticks(start), ticks(end));
    if (frames.keyBefore !== packets[0]!.pts) return await refuse(closeAll, "the keyframe is not the first listed");
    const choice = chooseStrategy(req, frames, packets);
    const audioShift = audioTrack ? await audioShiftOf(audioSource) : 0;
    const stats = () => sumStats(opened.map((o) => o.reader));
    if (choice.kind === "smart") {
      // The smart cut's middle is copied from this reader, its head and tail encoded from GOPs read here too; its
      // encoders match the source as ffprobe describes it (`probed`, run beside this index read).
      const smartReq = probed && req.info.fromIndex ? { ...req, info: await probed } : req;
      const why = smartRefusal(smartReq);
      if (why) return await refuse(closeAll, `auto chose smart: ${why}`);
      const smart = await planSmartDirect({
        req: smartReq,
        videoTrack,
        vSink,
        listed,
        frames,
        reason: choice.reason,
        audioTrack,
        audioShift,
        listAudio: (from, to) => listAudio(audioTrack!, audioShift, from, to),
      });
      if ("refused" in smart) return await refuse(closeAll, `smart cut: ${smart.refused}`);
      if (warnings.length > 0) return await refuse(closeAll, `mediabunny read it differently: ${warnings[0]}`);
      return { plan: { ...smart.plan, via, stats, close: closeAll } };
    }
    if (choice.kind !== "copy") return await refuse(closeAll, `auto chose ${choice.kind}`);
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
    if (warnings.length > 0) return await refuse(closeAll, `mediabunny read it differently: ${warnings[0]}`);
    const keySeconds = key.timestamp;
    const plan: DirectPlan = {
      ...copySpan(frames, choice),
      via,
      known,
      stats,
      close: closeAll,
      write: (out, o) =>
        writeClip(out, req.format, {
          videoTrack,
          vSink,
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
    await closeAll();
    if (error instanceof ClipError || signal?.aborted) throw error;
    return {
      refused: `the index could not be read in-process (${error instanceof Error ? error.message : String(error)})`,
    };
  } finally {
    stopListening();
  }
}

/**
 * The audio packets a clip of picture [fromTicks, endPts) copies (the rule of staged/copy.ts): the first packet at or
 * after the first frame, and every packet whose middle is before the picture's end, in decode order. Opus in Matroska
 * is placed as ffmpeg's demuxer places it (`shift`, its CodecDelay).
 */
async function listAudio(
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

async function refuse(close: () => Promise<void>, why: string): Promise<DirectOutcome> {
  await close();
  return { refused: why };
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
