import { EncodedPacketSink, FilePathSource, Input, MatroskaInputFormat } from "mediabunny";
import type { Format } from "../../../../app/domain/media";
import { FORMATS } from "../containers/clip-mux";
import { ClipError } from "../errors";
import { checkCopiedOutput, type CopiedPackets, type Verified } from "./verify";

/** A clip written in this process or by ffmpeg, read back before it is handed over: its packets and its starts. */

type ExpectedStarts = Parameters<typeof checkClipStarts>[1];

/**
 * The written clip checked against its plan before it is handed over: its packets (checkCopiedOutput) and, when
 * `starts` is given, where its picture and sound begin (checkClipStarts). Both only read the finished file, so they
 * run at the same time; when both fail, the packets' complaint is the one reported.
 */
export async function checkWrittenClip(
  file: string,
  format: Format,
  known: CopiedPackets,
  starts: ExpectedStarts | null,
  decode: { ffmpeg: string; signal?: AbortSignal },
): Promise<Verified> {
  const [packets, begins] = await Promise.allSettled([
    checkCopiedOutput(file, format, known, decode),
    starts ? checkClipStarts(file, starts) : Promise.resolve(),
  ]);
  if (packets.status === "rejected") throw packets.reason;
  if (begins.status === "rejected") throw begins.reason;
  return packets.value;
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
    const a = aTrack && (await firstPacket(new EncodedPacketSink(aTrack)));
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

/**
 * A track's first packet's time and length. A Matroska block carries no duration: the demuxer takes it from the next
 * block of its cluster, and gives 0 to a cluster's last one (a one-frame smart cut head's cluster holds one sound
 * packet), whose length is then the gap to the packet that follows.
 */
async function firstPacket(sink: EncodedPacketSink): Promise<{ timestamp: number; duration: number } | null> {
  const first = await sink.getFirstPacket({ metadataOnly: true });
  if (!first || first.duration > 0) return first;
  const next = await sink.getNextPacket(first, { metadataOnly: true });
  return { timestamp: first.timestamp, duration: next ? Math.max(0, next.timestamp - first.timestamp) : 0 };
}
