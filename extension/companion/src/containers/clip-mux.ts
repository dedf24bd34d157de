import {
  EncodedAudioPacketSource,
  EncodedVideoPacketSource,
  FilePathTarget,
  MATROSKA,
  MkvOutputFormat,
  MovOutputFormat,
  MP4,
  Mp4OutputFormat,
  Output,
  QTFF,
  WEBM,
  WebMOutputFormat,
  type EncodedPacket,
  type EncodedPacketSink as Sink,
  type InputAudioTrack,
  type InputTrack,
  type InputVideoTrack,
  type VideoCodec,
} from "mediabunny";
import type { Format } from "../../../../app/domain/media";
import { ClipError } from "../errors";

/**
 * Writing a clip from packets in this process (the mediabunny copy: path 3 of
 * docs/decisions/002-cut-strategy.md); the written clip is read back by check/written-clip.ts.
 */

export const FORMATS = [MP4, QTFF, MATROSKA, WEBM];

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

export type VideoConfig = NonNullable<Awaited<ReturnType<InputVideoTrack["getDecoderConfig"]>>>;

/** Packets moved onto the clip's clock (`origin` seconds of the source is the clip's 0). */
export async function* shifted(packets: AsyncIterable<EncodedPacket>, origin: number): AsyncGenerator<EncodedPacket> {
  for await (const p of packets) yield p.clone({ timestamp: p.timestamp - origin });
}

/**
 * Writes a clip from packets already on its clock, each track in decode order, interleaved by time, as they arrive
 * (the writer's backpressure bounds what is held; MP4 reserves the moov's space from the packet counts, so it is
 * written first and nothing waits for the end). The rotation and languages are the source tracks'.
 */
export async function muxClip(
  out: string,
  format: Format,
  o: {
    videoTrack: InputVideoTrack;
    videoConfig: VideoConfig;
    videoCount: number;
    video: AsyncIterator<EncodedPacket>;
    audioTrack: InputAudioTrack | null;
    audioCount: number;
    audio: AsyncIterator<EncodedPacket> | null;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  },
): Promise<void> {
  // Unchunked: each flush (one chunk of samples) is written where it goes. The default gathers writes into 16 MiB
  // buffers first, two fresh allocations and one more copy per clip, which cost more CPU than the whole read.
  const target = new FilePathTarget(out, { chunked: false });
  const output = new Output({ format: outputFormat(format), target });
  const vSource = new EncodedVideoPacketSource(VIDEO_CODEC_OF[(await o.videoTrack.getCodec())!]!);
  output.addVideoTrack(vSource, {
    ...(await trackMetadata(o.videoTrack)),
    rotation: await o.videoTrack.getRotation(),
    maximumPacketCount: o.videoCount,
  });
  let aSource: EncodedAudioPacketSource | null = null;
  if (o.audioTrack && o.audio && o.audioCount > 0) {
    aSource = new EncodedAudioPacketSource((await o.audioTrack.getCodec())!);
    output.addAudioTrack(aSource, { ...(await trackMetadata(o.audioTrack)), maximumPacketCount: o.audioCount });
  }
  let done = false;
  try {
    await output.start();
    const aConfig = aSource ? await o.audioTrack!.getDecoderConfig() : null;
    let nextV = await o.video.next();
    let nextA = aSource ? await o.audio!.next() : null;
    let written = 0;
    let videoWritten = 0;
    let audioWritten = 0;
    const total = o.videoCount + o.audioCount;
    // Interleaved by time, each track in its own decode order.
    while (!nextV.done || (nextA && !nextA.done)) {
      o.signal?.throwIfAborted();
      const takeVideo = !nextV.done && (!nextA || nextA.done || nextV.value.timestamp <= nextA.value.timestamp);
      if (takeVideo && !nextV.done) {
        await vSource.add(nextV.value, videoWritten === 0 ? { decoderConfig: o.videoConfig } : undefined);
        videoWritten++;
        nextV = await o.video.next();
      } else if (nextA && !nextA.done && aSource) {
        await aSource.add(nextA.value, audioWritten === 0 ? { decoderConfig: aConfig! } : undefined);
        audioWritten++;
        nextA = await o.audio!.next();
      }
      written++;
      if (written % 16 === 0) o.onProgress?.(written / total);
    }
    await output.finalize();
    done = true;
  } finally {
    if (!done) await output.cancel().catch(() => undefined);
  }
}

/** mediabunny's codec names for the writer (the reader's, unchanged). */
const VIDEO_CODEC_OF: Record<string, VideoCodec> = { avc: "avc", hevc: "hevc", vp9: "vp9", av1: "av1", vp8: "vp8" };

async function trackMetadata(track: InputTrack): Promise<{ languageCode?: string }> {
  const language = await track.getLanguageCode();
  return language && language !== "und" ? { languageCode: language } : {};
}

/** The planned packets with their bytes, in decode order, from the first one on. */
export async function* readPackets(sink: Sink, planned: EncodedPacket[]): AsyncGenerator<EncodedPacket> {
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
