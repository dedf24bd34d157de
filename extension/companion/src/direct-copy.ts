import {
  CustomSource,
  EncodedAudioPacketSource,
  EncodedVideoPacketSource,
  FilePathSource,
  FilePathTarget,
  Input,
  Logging,
  MATROSKA,
  MatroskaInputFormat,
  MkvOutputFormat,
  MovOutputFormat,
  MP4,
  Mp4OutputFormat,
  Output,
  QTFF,
  WEBM,
  WebMOutputFormat,
  type AudioCodec,
  type EncodedPacket,
  type EncodedPacketSink as Sink,
  type InputAudioTrack,
  type InputTrack,
  type InputVideoTrack,
  type Source,
  type VideoCodec,
} from "mediabunny";
import { EncodedPacketSink } from "mediabunny";
import type { Format } from "../../../app/domain/media";
import { canCopyAudio } from "./encode";
import { ClipError } from "./errors";
import { planFrames, toSeconds, toTicks, type CutFrames } from "./keyframes";
import type { Packet } from "./probe";
import { openRangeReader, type RangeReader } from "./range-reader";
import type { CutRequest } from "./request";
import { clipSubsegments, readFragmentIndex } from "./sidx";
import { chooseStrategy, reencodeReasons } from "./strategy";
import { checkCopiedOutput, type CopiedPackets, type Verified } from "./verify";

/**
 * The copy path in one pass and in this process (docs/decisions/002, 11; issue 30): the container's own index
 * (MP4 sample tables, our reading of a DASH file's `sidx`, Matroska Cues) is read through the guarded range reader,
 * the packets are chosen before any media byte is read (the same snap rule, frame plan and closed-prefix end as the
 * staged copy), and then exactly those packets are read and written into the clip as they arrive. What this path
 * does not take (a container mediabunny does not read, a codec the output cannot hold, audio that must be
 * re-encoded, a cut `auto` makes smart) is refused with the reason, and the cut takes the ffmpeg path.
 */

/** Extra video read past the end, in seconds: B-frames and the closed-prefix search need a few frames past it. */
const MARGIN_SECONDS = 1;

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
  if (req.strategy === "reencode" || req.strategy === "smart") return `${req.strategy} asked`;
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
  /** Where the picture starts (the keyframe) and ends, in the source's seconds. */
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
  /** Requests and bytes read so far. */
  stats(): { requests: number; bytes: number };
}

export type DirectOutcome = { plan: DirectPlan } | { refused: string };

interface Opened {
  input: Input;
  reader: RangeReader;
  /** The fragment span (a DASH file's sidx), when the input is a view of the clip's fragments only. */
  viaIndex: boolean;
}

const FORMATS = [MP4, QTFF, MATROSKA, WEBM];

/** Opens one source: the guarded reader, and for fragmented MP4 with a `sidx` only the clip's fragments. */
async function openSource(
  req: CutRequest,
  spec: CutRequest["input"],
  start: number,
  end: number,
  signal?: AbortSignal,
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
      const span = index && clipSubsegments(index, start, end, MARGIN_SECONDS);
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
export async function planDirectCopy(req: CutRequest, signal?: AbortSignal): Promise<DirectOutcome> {
  const refusal = directRefusal(req);
  if (refusal) return { refused: refusal };
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
    const main = await openSource(req, req.input, start, end, signal);
    opened.push(main);
    const videoTrack = await main.input.getPrimaryVideoTrack();
    if (!videoTrack) return await refuse(closeAll, "mediabunny found no video track");
    const vCodec = await videoTrack.getCodec();
    if (vCodec !== VIDEO_CODEC[req.info.video!.codec]) return await refuse(closeAll, `video codec ${vCodec}`);

    // Video: from the keyframe at or before the start (verified in the bitstream) through the margin past the end,
    // metadata only (an MP4's sample tables need no media bytes).
    const vSink = new EncodedPacketSink(videoTrack);
    // A start before the first picture (an audio priming offset) is the first picture, as in planFrames.
    const key =
      (await vSink.getKeyPacket(start + 0.001, { verifyKeyPackets: true })) ??
      (await vSink.getFirstKeyPacket({ verifyKeyPackets: true }));
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
    if (choice.kind !== "copy") return await refuse(closeAll, `auto chose ${choice.kind}`);
    const video = listed.slice(0, choice.packets);
    const keyTicks = frames.keyBefore;

    // Audio: the copy rule of plans/copy.ts — the first packet at or after the first frame, and every packet whose
    // middle is before the picture's end. Opus in Matroska is placed as ffmpeg's demuxer places it (CodecDelay).
    let audio: EncodedPacket[] = [];
    let audioShift = 0;
    if (audioTrack) {
      audioShift = await opusDelay(audioTrack, (await audioSource.input.getFormat()) instanceof MatroskaInputFormat);
      const aSink = new EncodedPacketSink(audioTrack);
      const at = (p: EncodedPacket) => ticks(p.timestamp - audioShift);
      let p = await aSink.getPacket(toSeconds(keyTicks) + audioShift, { metadataOnly: true });
      p ??= await aSink.getFirstPacket({ metadataOnly: true });
      for (; p; p = await aSink.getNextPacket(p, { metadataOnly: true })) {
        if (at(p) >= choice.endPts) break;
        if (at(p) >= keyTicks && at(p) + ticks(p.duration) / 2 < choice.endPts) audio.push(p);
      }
      audio = audio.sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    }
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
      startSeconds: toSeconds(keyTicks),
      endSeconds: toSeconds(choice.endPts),
      snapped: keyTicks !== frames.startPts,
      reason: choice.reason,
      frames,
      known,
      stats: () => {
        const all = opened.map((o) => o.reader.stats());
        return { requests: all.reduce((s, x) => s + x.requests, 0), bytes: all.reduce((s, x) => s + x.bytes, 0) };
      },
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

async function refuse(close: () => Promise<void>, why: string): Promise<DirectOutcome> {
  await close();
  return { refused: why };
}

/**
 * ffmpeg's Matroska demuxer places Opus packets `CodecDelay` earlier than the block times (mediabunny does not);
 * the codec delay is the OpusHead pre-skip (48 kHz samples) that the muxers write there.
 */
async function opusDelay(track: InputAudioTrack, matroska: boolean): Promise<number> {
  if ((await track.getCodec()) !== "opus" || !matroska) return 0;
  const config = await track.getDecoderConfig();
  const head = config?.description;
  if (!head) return 0;
  const bytes = ArrayBuffer.isView(head)
    ? new Uint8Array(head.buffer, head.byteOffset, head.byteLength)
    : new Uint8Array(head);
  return bytes.length >= 12 ? (bytes[10]! | (bytes[11]! << 8)) / 48000 : 0;
}

function outputFormat(format: Format) {
  switch (format) {
    case "webm":
      return new WebMOutputFormat();
    case "mkv":
      return new MkvOutputFormat();
    case "mov":
      return new MovOutputFormat({ fastStart: "reserve" });
    default:
      return new Mp4OutputFormat({ fastStart: "reserve" });
  }
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
  const output = new Output({ format: outputFormat(format), target: new FilePathTarget(out) });
  const vSource = new EncodedVideoPacketSource(VIDEO_CODEC_OF[(await o.videoTrack.getCodec())!]!);
  output.addVideoTrack(vSource, {
    ...(await trackMetadata(o.videoTrack)),
    rotation: await o.videoTrack.getRotation(),
    maximumPacketCount: o.video.length,
  });
  let aSource: EncodedAudioPacketSource | null = null;
  if (o.audioTrack && o.audio.length > 0) {
    aSource = new EncodedAudioPacketSource((await o.audioTrack.getCodec())!);
    output.addAudioTrack(aSource, { ...(await trackMetadata(o.audioTrack)), maximumPacketCount: o.audio.length });
  }
  let done = false;
  try {
    await output.start();
    const vConfig = await o.videoTrack.getDecoderConfig();
    const aConfig = o.audioTrack ? await o.audioTrack.getDecoderConfig() : null;
    const videoReads = readPackets(o.vSink, o.video);
    const audioReads = o.aSink ? readPackets(o.aSink, o.audio) : null;
    let nextV = await videoReads.next();
    let nextA = audioReads ? await audioReads.next() : null;
    let written = 0;
    const total = o.video.length + o.audio.length;
    // Interleaved by time, each track in its own decode order.
    while (!nextV.done || (nextA && !nextA.done)) {
      o.signal?.throwIfAborted();
      const takeVideo =
        !nextV.done &&
        (!nextA || nextA.done || nextV.value.timestamp - o.origin <= nextA.value.timestamp - o.audioOrigin);
      if (takeVideo && !nextV.done) {
        const p = nextV.value;
        await vSource.add(
          p.clone({ timestamp: p.timestamp - o.origin }),
          written === 0 ? { decoderConfig: vConfig! } : undefined,
        );
        nextV = await videoReads.next();
      } else if (nextA && !nextA.done && aSource) {
        const p = nextA.value;
        const first = p === o.audio[0] || p.sequenceNumber === o.audio[0]?.sequenceNumber;
        await aSource.add(
          p.clone({ timestamp: p.timestamp - o.audioOrigin }),
          first ? { decoderConfig: aConfig! } : undefined,
        );
        nextA = await audioReads!.next();
      }
      written++;
      if (written % 16 === 0) o.onProgress?.(written / total);
    }
    await output.finalize();
    done = true;
  } finally {
    if (!done) await output.cancel().catch(() => undefined);
  }
  const verified = await checkCopiedOutput(out, format, o.known, { ffmpeg: o.ffmpeg, signal: o.signal });
  await checkClipStarts(out, {
    keyBytes: o.video[0]!.byteLength,
    audioStart: o.audio[0] ? o.audio[0].timestamp - o.audioOrigin : null,
  });
  return verified;
}

/** mediabunny's codec names for the writer (the reader's, unchanged). */
const VIDEO_CODEC_OF: Record<string, VideoCodec> = { avc: "avc", hevc: "hevc", vp9: "vp9", av1: "av1", vp8: "vp8" };

async function trackMetadata(track: InputTrack): Promise<{ languageCode?: string }> {
  const language = await track.getLanguageCode();
  return language && language !== "und" ? { languageCode: language } : {};
}

/** The planned packets with their bytes, in decode order, from the first one on. */
async function* readPackets(sink: Sink, planned: EncodedPacket[]): AsyncGenerator<EncodedPacket> {
  if (planned.length === 0) return;
  let p: EncodedPacket | null = await sink.getPacket(planned[0]!.timestamp);
  // getPacket answers by presentation time: step to the planned first packet in decode order.
  while (p && p.sequenceNumber !== planned[0]!.sequenceNumber) {
    p = p.sequenceNumber < planned[0]!.sequenceNumber ? await sink.getNextPacket(p) : null;
  }
  if (!p) throw new ClipError("verify_failed", "The source changed while the clip was read; try again.", 500);
  for (let i = 0; i < planned.length; i++) {
    if (!p || p.sequenceNumber !== planned[i]!.sequenceNumber || p.byteLength !== planned[i]!.byteLength) {
      throw new ClipError("verify_failed", "The source changed while the clip was read; try again.", 500);
    }
    yield p;
    if (i + 1 < planned.length) p = await sink.getNextPacket(p);
  }
}

/**
 * The clip as a demuxer reads it back: its first picture is the planned keyframe (a key packet at 0, of the planned
 * size when it was copied; null for a re-encoded first frame) and its sound starts within one audio frame of the
 * planned start (seconds on the clip's clock). An encoded sound may start up to its priming earlier (AAC's 1024
 * samples, which the MP4 edit list hides), hence `slack` extra seconds; `ffmpegMuxed`: the clip was written by
 * ffmpeg's muxer (a smart cut), see below.
 */
export async function checkClipStarts(
  file: string,
  expected: { keyBytes: number | null; audioStart: number | null; slack?: number; ffmpegMuxed?: boolean },
) {
  const input = new Input({ formats: FORMATS, source: new FilePathSource(file) });
  try {
    const vTrack = await input.getPrimaryVideoTrack();
    const first = vTrack && (await new EncodedPacketSink(vTrack).getFirstPacket({ metadataOnly: true }));
    const size = expected.keyBytes;
    // Matroska has no edit list: ffmpeg's muxer moves every stream later by the encoded sound's priming (AAC's
    // 1024 samples, Opus's pre-skip), so that the primed sound starts at 0; there the first picture is that much
    // later, less than one audio frame.
    const aTrack = await input.getPrimaryAudioTrack();
    const a = aTrack && (await new EncodedPacketSink(aTrack).getFirstPacket({ metadataOnly: true }));
    const matroska = (await input.getFormat()) instanceof MatroskaInputFormat;
    const lead = expected.ffmpegMuxed && matroska && a ? a.duration : 0;
    const t = first?.timestamp ?? NaN;
    if (
      !first ||
      first.type !== "key" ||
      (size !== null && first.byteLength !== size) ||
      !(t >= -0.002 && t <= lead + 0.002)
    ) {
      throw new ClipError("verify_failed", "The written clip does not start on the planned keyframe.", 500);
    }
    if (expected.audioStart !== null) {
      if (!a || Math.abs(a.timestamp - expected.audioStart) > Math.max(a.duration, 0.001) + (expected.slack ?? 0)) {
        throw new ClipError("verify_failed", "The written clip's sound does not start where it was planned.", 500);
      }
    }
  } catch (error) {
    if (error instanceof ClipError) throw error;
    throw new ClipError("verify_failed", "The written clip could not be read back.", 500);
  } finally {
    input.dispose();
  }
}
