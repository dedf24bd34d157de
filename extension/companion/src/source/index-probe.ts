import { CustomSource, Input, MatroskaInputFormat, type InputTrack } from "mediabunny";
import { FORMATS } from "../containers/clip-mux";
import { ClipError } from "../errors";
import type { MediaInfo } from "./probe";
import { openRangeReader } from "./range-reader";
import { fragmentedDuration } from "../containers/sidx";
import type { InputSpec } from "./source";

/**
 * The probe of a source the in-process copy reads (MP4/MOV, fragmented MP4, WebM/Matroska), from the container's own
 * header through the guarded range reader, without starting ffprobe (docs/decisions/002-cut-strategy.md, "Reading the
 * source"; figures in bench/results/companion-cut.md): an ffprobe run costs about what the whole plain ffmpeg copy
 * costs, and was most of a first copy's time and requests.
 *
 * It reads what the in-process path and the job need (container, duration, codecs, picture size, sound format). The
 * fields only the ffmpeg plans use (profile, level, pixel format, colour, bit rates) are left unknown, and `fromIndex`
 * says so: a cut that takes the ffmpeg path, or a smart cut, probes with ffprobe first (cut.ts). Null when the source
 * is not one of those containers or something in it is not understood: the caller runs ffprobe instead.
 */
export async function probeFromIndex(input: InputSpec, signal?: AbortSignal): Promise<MediaInfo | null> {
  if (input.audio) {
    const { audio, ...video } = input;
    const [v, a] = await Promise.all([probeStream(video, signal), probeStream(audio, signal)]);
    if (!v?.video || !a?.audio) return null;
    return { ...v, durationSeconds: Math.min(v.durationSeconds, a.durationSeconds), audio: a.audio };
  }
  return probeStream(input, signal);
}

/** mediabunny's codec names against ffprobe's (the names the rest of the companion uses). */
const VIDEO_CODECS: Record<string, string> = { avc: "h264", hevc: "hevc", vp9: "vp9", av1: "av1", vp8: "vp8" };
const AUDIO_CODECS: Record<string, string> = { aac: "aac", opus: "opus", mp3: "mp3", vorbis: "vorbis", flac: "flac" };

async function probeStream(spec: InputSpec, signal?: AbortSignal): Promise<MediaInfo | null> {
  const reader = await openRangeReader(spec, signal);
  const input = new Input({
    formats: FORMATS,
    source: new CustomSource({ getSize: () => reader.size, read: (a, b) => reader.read(a, b) }),
  });
  try {
    const matroska = (await input.getFormat()) instanceof MatroskaInputFormat;
    // A fragmented MP4's moov holds no duration (ffprobe reads it from the sidx, as here).
    const duration =
      (await input.getDurationFromMetadata()) ??
      (matroska ? null : await fragmentedDuration((a, b) => reader.read(a, b), reader.size));
    if (duration === null || !Number.isFinite(duration) || duration <= 0) return null;
    const v = await input.getPrimaryVideoTrack();
    const a = await input.getPrimaryAudioTrack();
    const vCodec = v && VIDEO_CODECS[(await v.getCodec()) ?? ""];
    const aCodec = a && AUDIO_CODECS[(await a.getCodec()) ?? ""];
    if ((v && !vCodec) || (a && !aCodec) || (!v && !a)) return null;
    return {
      durationSeconds: duration,
      formatName: matroska ? "matroska,webm" : "mov,mp4,m4a,3gp,3g2,mj2",
      bitRate: null,
      fromIndex: true,
      video:
        v && vCodec
          ? {
              index: v.id,
              codec: vCodec,
              profile: null,
              level: null,
              pixFmt: null,
              width: await v.getCodedWidth(),
              height: await v.getCodedHeight(),
              frameRate: (await frameRate(v, matroska)) || 30,
              reorderFrames: 0,
              colorRange: null,
              colorSpace: null,
              colorTransfer: null,
              colorPrimaries: null,
              bitRate: null,
            }
          : null,
      audio:
        a && aCodec
          ? {
              index: a.id,
              codec: aCodec,
              sampleRate: await a.getSampleRate(),
              channels: await a.getNumberOfChannels(),
              bitRate: null,
            }
          : null,
    };
  } catch (error) {
    // The guard's refusals and a source that stopped answering are reported as they are; anything mediabunny
    // does not understand goes to ffprobe.
    if (error instanceof ClipError || signal?.aborted) throw error;
    return null;
  } finally {
    input.dispose();
    // The cut that follows reads this header again: it starts from these bytes.
    reader.share();
    await reader.close();
  }
}

/** Frames per second from an MP4's sample tables (no media bytes); Matroska would need a cluster read: unknown. */
async function frameRate(track: InputTrack, matroska: boolean): Promise<number> {
  if (matroska) return 0;
  const stats = await track.computePacketStats(60);
  return Number.isFinite(stats.averagePacketRate) ? Math.round(stats.averagePacketRate * 1000) / 1000 : 0;
}
