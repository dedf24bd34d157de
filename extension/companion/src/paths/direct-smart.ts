// Long because: the in-process H.264 smart cut re-encodes the head GOP and copies the rest: its encoder setup, the
// splice and the sound are one path's rule.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  EncodedPacketSink,
  FilePathSource,
  FilePathTarget,
  Input,
  MP4,
  Mp4OutputFormat,
  Output,
  EncodedVideoPacketSource,
  type EncodedPacket,
  type InputAudioTrack,
  type InputVideoTrack,
} from "mediabunny";
import { checkWrittenClip } from "../check/written-clip";
import { muxClip, readPackets, shifted, type VideoConfig } from "../containers/clip-mux";
import { listAudio, notRead, type MediabunnyRead } from "./direct-copy";
import { matchingH264Args } from "./encode";
import { ClipError } from "../errors";
import { runFfmpeg } from "../ffmpeg";
import { smartReencoded, toSeconds, toTicks, type CutFrames } from "./keyframes";
import type { CutRequest, DirectPlan, PathOutcome } from "./request";
import type { MediaInfo } from "../source/probe";
import type { CopiedPackets, Verified } from "../check/verify";

/**
 * The H.264 smart cut in this process (path 4 of docs/decisions/002-cut-strategy.md): the plan is the staged smart
 * cut's (the head from the start frame to the next keyframe, whole GOPs, the last GOP's longest closed prefix, a short
 * tail), made from the container's index before any media byte is read. The GOP before the head and the start of the
 * last GOP are read through the guarded reader into small local MP4 files for x264 (the encoders never see the source);
 * the copied middle is read and written as it arrives; one MP4 mux writes the encoded head, the copied packets and the
 * encoded tail. Each part keeps its own SPS/PPS: the track's `avcC` is the first part's, and a part whose parameter
 * sets differ carries its own in-band, before its first IDR picture (the staged cut's MPEG-TS join carried them in-band
 * the same way). Decode times need no shift: the MP4 writer derives them per GOP from the sorted presentation times.
 */

/** Output containers this path writes; MKV and WebM smart cuts stay on the staged path. */
const FORMATS_OUT = new Set(["mp4", "mov"]);

/** Why the smart cut cannot be made here (known before anything is read); null when it can. */
export function smartRefusal(req: CutRequest): string | null {
  if (req.info.video?.codec !== "h264")
    return `the ${req.info.video?.codec ?? "unknown"} smart cut is staged by ffmpeg`;
  if (!FORMATS_OUT.has(req.format)) return `a smart cut into ${req.format} is muxed by ffmpeg`;
  return null;
}

/**
 * Path 4: the smart cut from mediabunny's reading (the one path 3 made, when it did). Its encoders match the source
 * as ffprobe describes it (`probed`, run beside the index read, for a source probed from its index).
 */
export async function planMediabunnySmart(
  read: MediabunnyRead,
  req: CutRequest,
  probed?: Promise<MediaInfo>,
  signal?: AbortSignal,
): Promise<PathOutcome> {
  const { choice } = read;
  if (choice.kind !== "smart") return { refused: `auto chose ${choice.kind}` };
  try {
    // The smart cut's middle is copied from this reader, its head and tail encoded from GOPs read here too.
    const smartReq = probed && req.info.fromIndex ? { ...req, info: await probed } : req;
    const why = smartRefusal(smartReq);
    if (why) return await closed(read, `auto chose smart: ${why}`);
    const smart = await planSmartDirect({
      req: smartReq,
      videoTrack: read.videoTrack,
      vSink: read.vSink,
      listed: read.listed,
      frames: read.frames,
      reason: choice.reason,
      audioTrack: read.audioTrack,
      audioShift: read.audioShift,
      listAudio: (from, to) => listAudio(read.audioTrack!, read.audioShift, from, to),
    });
    if ("refused" in smart) return await closed(read, `smart cut: ${smart.refused}`);
    if (read.warnings.length > 0) return await closed(read, `mediabunny read it differently: ${read.warnings[0]}`);
    return { plan: { ...smart.plan, via: read.via, stats: read.stats, close: read.close } };
  } catch (error) {
    return notRead(read.close, error, signal);
  }
}

async function closed(read: MediabunnyRead, why: string): Promise<{ refused: string }> {
  await read.close();
  return { refused: why };
}

/** One re-encoded stretch: the source packets its decoder needs, and the frames it replaces. */
interface EncodedPart {
  name: "head" | "tail" | "only";
  /** Source packets from a keyframe, in decode order: everything the wanted frames need. */
  source: EncodedPacket[];
  /** The frames it replaces (source packets, in presentation order). */
  frames: EncodedPacket[];
  /** Index of the first replaced frame among the source packets' frames in presentation order. */
  skip: number;
  capBitsPerSecond: number;
}

type Refused = { refused: string };

/**
 * Plans the smart cut from mediabunny's reading of the index (`listed`: metadata of the packets from the keyframe at
 * or before the start to a margin past the end, in decode order). Refuses what it cannot make exactly (an open GOP,
 * a keyframe that is not IDR, NAL lengths other than 4 bytes), and the cut takes the staged path.
 */
export async function planSmartDirect(o: {
  req: CutRequest;
  videoTrack: InputVideoTrack;
  vSink: EncodedPacketSink;
  listed: EncodedPacket[];
  frames: CutFrames;
  reason: string;
  audioTrack: InputAudioTrack | null;
  audioShift: number;
  listAudio: (fromTicks: number, endPts: number) => Promise<EncodedPacket[]>;
}): Promise<{ plan: Omit<DirectPlan, "stats" | "close"> } | Refused> {
  const { req, listed, frames } = o;
  const config = await o.videoTrack.getDecoderConfig();
  if (!config?.description || nalLengthSize(config) !== 4)
    return { refused: "the source has no avcC with 4-byte NAL lengths" };
  const t = (p: EncodedPacket) => toTicks(p.timestamp);
  const at = (pts: number) => listed.findIndex((p) => t(p) === pts && p.type === "key");
  const byPts = (a: EncodedPacket, b: EncodedPacket) => a.timestamp - b.timestamp;
  const wanted = listed.filter((p) => t(p) >= frames.startPts && t(p) < frames.endPts).sort(byPts);
  if (wanted.length !== frames.frameCount) return { refused: "the frame plan does not match the index" };
  const startPacket = wanted[0]!;
  // The rate cap of an encode: the source's own rate over the frames it replaces, or over the whole read when higher
  // (a part that starts with a new IDR needs more than the P/B frames it replaces), as on the staged path.
  const rate = (ps: EncodedPacket[]) => {
    const seconds = Math.max(
      ps.reduce((s, p) => s + p.duration, 0),
      toSeconds(frames.frameTicks),
    );
    return (ps.reduce((s, p) => s + p.byteLength, 0) * 8) / seconds;
  };
  const overall = rate(listed);
  /** A part decoded from the keyframe at `keyIndex`, replacing the frames [fromPts, toPts). */
  const part = (name: EncodedPart["name"], keyIndex: number, fromPts: number, toPts: number): EncodedPart | Refused => {
    const replaced = listed.filter((p) => t(p) >= fromPts && t(p) < toPts).sort(byPts);
    // The decoder needs every packet up to the last replaced one in decode order (their references come earlier).
    const last = Math.max(...replaced.map((p) => listed.indexOf(p)));
    const source = listed.slice(keyIndex, last + 1);
    const keyPts = t(listed[keyIndex]!);
    // An open GOP (pictures after the keyframe in decode order shown before it) is left to the staged path.
    if (source.some((p) => t(p) < keyPts)) return { refused: `open GOP at ${toSeconds(keyPts).toFixed(3)} s` };
    const shown = source.map(t).sort((a, b) => a - b);
    return {
      name,
      source,
      frames: replaced,
      skip: shown.indexOf(fromPts),
      capBitsPerSecond: Math.max(rate(replaced), overall),
    };
  };

  let head: EncodedPart | null = null;
  let tail: EncodedPart | null = null;
  let middle: EncodedPacket[] = [];
  const { keyAfterStart, lastKey } = frames;
  if (smartReencoded(frames).whole || keyAfterStart === null || lastKey === null) {
    // The whole clip sits inside one GOP: it is all encoded.
    const only = part("only", 0, frames.startPts, frames.endPts);
    if ("refused" in only) return only;
    head = only;
  } else {
    if (!frames.startOnKey) {
      const h = part("head", at(frames.keyBefore), frames.startPts, keyAfterStart);
      if ("refused" in h) return h;
      // The head's decoder stops before the next keyframe: its GOP must hold every frame it replaces.
      if (h.source.length > at(keyAfterStart) - at(frames.keyBefore)) return { refused: "the head's GOP is open" };
      head = h;
    }
    // Copied: whole GOPs from the first keyframe of the clip, then the last GOP's longest closed prefix.
    const first = at(frames.startOnKey ? frames.startPts : keyAfterStart);
    const lastIndex = at(lastKey);
    if (first < 0 || lastIndex < 0) return { refused: "a keyframe of the plan is not in the index" };
    middle = listed.slice(first, lastIndex + frames.tailCopyFrames);
    if (frames.tailFrames > frames.tailCopyFrames) {
      const restart = listed
        .slice(lastIndex)
        .map(t)
        .filter((pts) => pts >= lastKey)
        .sort((a, b) => a - b)[frames.tailCopyFrames]!;
      const tl = part("tail", lastIndex, restart, frames.endPts);
      if ("refused" in tl) return tl;
      tail = tl;
    }
  }
  // The clip holds exactly the planned frames, each once: the encoded ones and the copied ones.
  const clip = [...(head?.frames ?? []), ...middle, ...(tail?.frames ?? [])].map(t).sort((a, b) => a - b);
  if (clip.length !== wanted.length || clip.some((pts, i) => pts !== t(wanted[i]!)))
    return { refused: "the copied GOPs do not hold exactly the frames between the encoded ends" };
  // The copied middle must start on an IDR picture: its pictures may not refer to anything before it.
  if (middle.length > 0) {
    const firstMiddle = await o.vSink.getPacket(middle[0]!.timestamp);
    if (!firstMiddle || firstMiddle.sequenceNumber !== middle[0]!.sequenceNumber || !isIdr(firstMiddle.data))
      return { refused: "the copied GOPs do not start on an IDR picture" };
  }

  const origin = startPacket.timestamp;
  const audio = o.audioTrack ? await o.listAudio(frames.startPts, frames.endPts) : [];
  const v = req.info.video!;
  const known: CopiedPackets = {
    seconds: toSeconds(frames.endPts - frames.startPts),
    width: v.width,
    height: v.height,
    // Counted, not sized: the encoded parts have no source sizes, and the copied key packet gains parameter sets.
    videoSizes: new Array<number>(frames.frameCount).fill(0),
    sizesExact: false,
    audioPackets: o.audioTrack ? audio.length : null,
  };
  const audioOrigin = origin + o.audioShift;
  const plan: Omit<DirectPlan, "stats" | "close"> = {
    strategy: "smart",
    startSeconds: toSeconds(frames.startPts),
    endSeconds: toSeconds(frames.endPts),
    snapped: false,
    reason: o.reason,
    frames,
    known,
    write: (out, w) =>
      writeSmart(out, req, {
        ...o,
        config,
        head,
        middle,
        tail,
        audio,
        origin,
        audioOrigin,
        known,
        signal: w.signal,
        ffmpeg: w.ffmpeg,
        onProgress: w.onProgress,
      }),
  };
  return { plan };
}

async function writeSmart(
  out: string,
  req: CutRequest,
  o: {
    videoTrack: InputVideoTrack;
    vSink: EncodedPacketSink;
    config: VideoConfig;
    head: EncodedPart | null;
    middle: EncodedPacket[];
    tail: EncodedPart | null;
    audioTrack: InputAudioTrack | null;
    audio: EncodedPacket[];
    origin: number;
    audioOrigin: number;
    known: CopiedPackets;
    signal?: AbortSignal;
    ffmpeg: string;
    onProgress?: (fraction: number) => void;
  },
): Promise<Verified> {
  const work = await mkdtemp(join(tmpdir(), "clipcut-smart-"));
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  const encodes: Promise<unknown>[] = [];
  // An encode that fails stops the whole write at once (the middle may still be streaming) and is the error told.
  let failed: unknown = null;
  try {
    // The encoders' inputs first (the GOP before the head, the start of the last GOP), then both encodes at once;
    // the middle is copied while the tail is still encoding.
    const encode = async (p: EncodedPart | null) => {
      if (!p) return null;
      const input = join(work, `${p.name}-source.mp4`);
      await writeGop(input, o.config, readPackets(o.vSink, p.source), p.source[0]!.timestamp);
      const run = encodePart(req, p, input, join(work, `${p.name}.mp4`), o.origin, { ffmpeg: o.ffmpeg, signal });
      encodes.push(
        run.catch((error: unknown) => {
          // Not when this write stopped it (its own error is the one told).
          if (!stop.signal.aborted) failed ??= error;
          stop.abort();
        }),
      );
      return run;
    };
    const headRun = await encode(o.head);
    const tailRun = await encode(o.tail);
    const head = headRun ? await headRun : null;
    // The track's avcC is the first part's; every later part whose parameter sets differ from the ones before it
    // carries its own.
    const config = head?.config ?? o.config;
    const video = async function* (): AsyncGenerator<EncodedPacket> {
      if (head) yield* head.packets;
      let first = true;
      for await (const p of shifted(readPackets(o.vSink, o.middle), o.origin)) {
        yield first ? withParameterSets(p, o.config, config) : p;
        first = false;
      }
      if (!tailRun) return;
      const tail = await tailRun;
      // After copied GOPs the decoder holds the source's parameter sets: the tail brings its own back.
      const before = o.middle.length > 0 ? o.config : config;
      yield* tail.packets.map((p, i) => (i === 0 ? withParameterSets(p, tail.config, before) : p));
    };
    await muxClip(out, req.format, {
      videoTrack: o.videoTrack,
      videoConfig: config,
      videoCount: o.known.videoSizes.length,
      video: video(),
      audioTrack: o.audio.length > 0 ? o.audioTrack : null,
      audioCount: o.audio.length,
      audio: o.audioTrack ? shifted(readPackets(new EncodedPacketSink(o.audioTrack), o.audio), o.audioOrigin) : null,
      signal,
      onProgress: o.onProgress,
    });
  } catch (error) {
    stop.abort();
    await Promise.allSettled(encodes);
    throw failed ?? error;
  } finally {
    await Promise.allSettled(encodes);
    await rm(work, { recursive: true, force: true });
  }
  const starts = { keyBytes: null, audioStart: o.audio[0] ? o.audio[0].timestamp - o.audioOrigin : null };
  return checkWrittenClip(out, req.format, o.known, starts, { ffmpeg: o.ffmpeg, signal: o.signal });
}

/** Source packets (decode order, bytes read through the guarded reader) into a small MP4 for the encoder. */
async function writeGop(
  file: string,
  config: VideoConfig,
  packets: AsyncIterable<EncodedPacket>,
  origin: number,
): Promise<void> {
  const output = new Output({ format: new Mp4OutputFormat(), target: new FilePathTarget(file, { chunked: false }) });
  const source = new EncodedVideoPacketSource("avc");
  output.addVideoTrack(source);
  let done = false;
  try {
    await output.start();
    let first = true;
    for await (const p of shifted(packets, origin)) {
      await source.add(p, first ? { decoderConfig: config } : undefined);
      first = false;
    }
    await output.finalize();
    done = true;
  } finally {
    if (!done) await output.cancel().catch(() => undefined);
  }
}

/**
 * Encodes one part with the source's H.264 parameters (encode.ts; no B-frames, so one packet per frame in
 * presentation order) and reads its packets back, each given the time of the source frame it replaces.
 */
async function encodePart(
  req: CutRequest,
  p: EncodedPart,
  input: string,
  output: string,
  origin: number,
  o: { ffmpeg: string; signal: AbortSignal },
): Promise<{ config: VideoConfig; packets: EncodedPacket[] }> {
  const seconds = p.frames.reduce((s, f) => s + f.duration, 0);
  // trim by frame number in presentation order: the decoded GOP's frames from the first one replaced.
  await runFfmpeg(
    o.ffmpeg,
    [
      ...["-i", input, "-map", "0:v:0", "-vf", `trim=start_frame=${p.skip}:end_frame=${p.skip + p.frames.length}`],
      ...["-fps_mode", "passthrough", ...matchingH264Args(req.info.video!, p.capBitsPerSecond)],
      ...["-an", "-sn", "-dn", "-f", "mp4", output],
    ],
    { signal: o.signal, timeoutMs: Math.round((120 + seconds * 20) * 1000) },
  );
  const encoded = new Input({ formats: [MP4], source: new FilePathSource(output) });
  const broken = () => new ClipError("verify_failed", `The re-encoded ${p.name} of the clip is not as planned.`, 500);
  try {
    const track = await encoded.getPrimaryVideoTrack();
    const config = track && (await track.getDecoderConfig());
    if (!track || !config || nalLengthSize(config) !== 4) throw broken();
    const sink = new EncodedPacketSink(track);
    const packets: EncodedPacket[] = [];
    let last = -Infinity;
    for (let q = await sink.getFirstPacket(); q; q = await sink.getNextPacket(q)) {
      const frame = p.frames[packets.length];
      // One packet per replaced frame, in presentation order, starting with a key picture.
      if (!frame || q.timestamp <= last || (packets.length === 0 && !isIdr(q.data))) throw broken();
      last = q.timestamp;
      packets.push(q.clone({ timestamp: frame.timestamp - origin, duration: frame.duration }));
    }
    if (packets.length !== p.frames.length) throw broken();
    return { config, packets };
  } finally {
    encoded.dispose();
  }
}

function bytesOf(data: VideoConfig["description"]): Uint8Array {
  if (!data) return new Uint8Array(0);
  return ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
}

/** NAL unit length size of an `avcC` (1, 2 or 4 bytes). */
function nalLengthSize(config: VideoConfig): number {
  const avcC = bytesOf(config.description);
  return avcC.length > 4 ? (avcC[4]! & 3) + 1 : 0;
}

/** The SPS and PPS NAL units of an `avcC`. */
function parameterSets(config: VideoConfig): Uint8Array[] {
  const avcC = bytesOf(config.description);
  const units: Uint8Array[] = [];
  let i = 6;
  const take = (count: number) => {
    for (let k = 0; k < count && i + 2 <= avcC.length; k++) {
      const length = (avcC[i]! << 8) | avcC[i + 1]!;
      units.push(avcC.subarray(i + 2, i + 2 + length));
      i += 2 + length;
    }
  };
  take(avcC[5]! & 31);
  take(avcC[i++] ?? 0);
  return units;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The first packet of a part whose parameter sets are not the ones in force before it: its SPS and PPS put in front
 * of it as length-prefixed NAL units, so a decoder switches to them at this IDR picture.
 */
function withParameterSets(p: EncodedPacket, own: VideoConfig, before: VideoConfig): EncodedPacket {
  if (sameBytes(bytesOf(own.description), bytesOf(before.description))) return p;
  const units = parameterSets(own);
  const data = new Uint8Array(units.reduce((s, u) => s + 4 + u.length, 0) + p.data.length);
  let at = 0;
  for (const u of units) {
    new DataView(data.buffer).setUint32(at, u.length);
    data.set(u, at + 4);
    at += 4 + u.length;
  }
  data.set(p.data, at);
  return p.clone({ data });
}

/** True when a length-prefixed (4-byte) H.264 access unit holds an IDR slice before any other slice. */
function isIdr(data: Uint8Array): boolean {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = 0; at + 5 <= data.length;) {
    const type = data[at + 4]! & 31;
    if (type === 5) return true;
    if (type >= 1 && type <= 4) return false;
    at += 4 + view.getUint32(at);
  }
  return false;
}
