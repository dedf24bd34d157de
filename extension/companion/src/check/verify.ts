import { open } from "node:fs/promises";
import { z } from "zod";
import type { Format } from "../../../../app/domain/media";
import { ClipError } from "../errors";
import { readContainerPackets, type TrackPackets } from "./container-packets";
import { boxHeader } from "../containers/mp4-boxes";
import { runProcess } from "../ffmpeg";

export interface Verified {
  durationSeconds: number;
  width: number | null;
  height: number | null;
  /** Video frames (packets) in the file, null for audio outputs. */
  frames: number | null;
}

const schema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        duration: z.string().optional(),
        nb_read_packets: z.string().optional(),
        avg_frame_rate: z.string().optional(),
      }),
    )
    .default([]),
  format: z.object({ duration: z.string().optional() }),
});

/**
 * Reads the written file back before it is handed over (and before credits are captured): the expected streams
 * are there and the duration is what was asked, within a small tolerance.
 */
export async function verifyOutput(
  ffprobe: string,
  file: string,
  expect: { video: boolean; audio: boolean; expectedSeconds: number; signal?: AbortSignal },
): Promise<Verified> {
  const { stdout } = await runProcess(
    ffprobe,
    [
      "-v",
      "error",
      "-count_packets",
      "-show_entries",
      "stream=codec_type,width,height,duration,nb_read_packets,avg_frame_rate:format=duration",
      "-print_format",
      "json",
      file,
    ],
    { signal: expect.signal },
  ).catch((error: unknown) => {
    if (error instanceof ClipError && error.code === "cancelled") throw error;
    throw new ClipError("verify_failed", "The written clip could not be read back.", 500);
  });
  const parsed = schema.parse(JSON.parse(stdout));
  const video = parsed.streams.find((s) => s.codec_type === "video");
  const audio = parsed.streams.find((s) => s.codec_type === "audio");
  if (expect.video && !video) throw new ClipError("verify_failed", "The written clip has no video stream.", 500);
  if (expect.audio && !audio) throw new ClipError("verify_failed", "The written clip has no audio stream.", 500);
  const frames = video?.nb_read_packets !== undefined ? Number(video.nb_read_packets) : null;
  const [num, den] = (video?.avg_frame_rate ?? "").split("/").map(Number);
  const fps = num && den ? num / den : 0;
  const main = expect.video ? video : audio;
  // Video: frames held × frame duration (containers disagree on how they round a stream's duration).
  const duration = expect.video && frames && fps > 0 ? frames / fps : Number(main?.duration ?? NaN);
  const measured = Number.isFinite(duration) ? duration : Number(parsed.format.duration ?? NaN);
  if (!Number.isFinite(measured) || measured <= 0) {
    throw new ClipError("verify_failed", "The written clip has no duration.", 500);
  }
  // A clip that came out far shorter than planned (e.g. a truncated source) is an error, not a result.
  if (measured < expect.expectedSeconds - Math.max(0.5, expect.expectedSeconds * 0.05)) {
    throw new ClipError(
      "verify_failed",
      `The clip came out ${measured.toFixed(2)}s long instead of ${expect.expectedSeconds.toFixed(2)}s.`,
      500,
    );
  }
  return {
    durationSeconds: measured,
    width: video?.width ?? null,
    height: video?.height ?? null,
    frames,
  };
}

/** What a stream copy chose to write, from the staging listing. */
export interface CopiedPackets {
  seconds: number;
  width: number;
  height: number;
  /** Sizes of the chosen video packets in decode order. */
  videoSizes: number[];
  /** True when the muxer writes those packets' bytes unchanged (so sizes must match one for one, not just the count). */
  sizesExact: boolean;
  /** Audio packets copied, or null when the audio was re-encoded (its packet count is the encoder's). */
  audioPackets: number | null;
}

/**
 * The check for a stream copy, without a demuxer pass: ffmpeg must have left a whole container on disk (for
 * MP4/MOV a chain of top-level boxes that starts with ftyp, holds moov and mdat and ends exactly at the end of the
 * file; for Matroska/WebM the EBML header and a Segment that ends with the file), and that container must hold
 * exactly the packets the cut chose: the same number per stream and, where the muxer keeps the bytes, the same
 * sizes in the same order (a copy once lost a packet inside the range and still looked whole). The packet table
 * is read in-process (container-packets.ts); when its layout cannot be walked, the video is decoded instead and
 * must give the chosen number of frames without an error. Outputs that are encoded keep the full read-back above.
 */
export async function checkCopiedOutput(
  file: string,
  format: Format,
  chosen: CopiedPackets,
  decode: { ffmpeg: string; signal?: AbortSignal },
): Promise<Verified> {
  const frames = chosen.videoSizes.length;
  if (frames <= 0 || chosen.seconds <= 0) throw new ClipError("verify_failed", "The written clip is empty.", 500);
  const handle = await open(file, "r").catch(() => {
    throw new ClipError("verify_failed", "The written clip could not be read back.", 500);
  });
  const broken = (why: string) => new ClipError("verify_failed", `The written clip is incomplete (${why}).`, 500);
  let tracks: TrackPackets[] | null;
  try {
    const size = (await handle.stat()).size;
    const read = async (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, at);
      return buffer.subarray(0, bytesRead);
    };
    const mp4 = format === "mp4" || format === "mov";
    if (mp4) {
      const boxes: string[] = [];
      let at = 0;
      while (at < size && boxes.length < 1000) {
        const head = await read(at, 16);
        if (head.length < 8) throw broken("a truncated box");
        const box = boxHeader(head, at, size);
        if (!box) throw broken("a malformed box");
        boxes.push(box.type);
        at += box.length;
      }
      if (at !== size || boxes[0] !== "ftyp" || !boxes.includes("moov") || !boxes.includes("mdat")) {
        throw broken(`boxes ${boxes.join(",")}`);
      }
    } else {
      const head = await read(0, 4096);
      if (head.readUInt32BE(0) !== 0x1a45dfa3 || head.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])) < 0) {
        throw broken("no Matroska header");
      }
    }
    tracks = await readContainerPackets(handle, size, mp4 ? "mp4" : "matroska").catch(() => null);
  } finally {
    await handle.close();
  }
  const video = tracks?.filter((t) => t.kind === "video");
  const audio = tracks?.filter((t) => t.kind === "audio");
  if (video?.length === 1 && audio && video[0]) {
    const written = video[0];
    const missing = (what: string) =>
      new ClipError("verify_failed", `The written clip does not hold the chosen packets (${what}).`, 500);
    if (written.count !== frames) throw missing(`${written.count} video packets written, ${frames} chosen`);
    if (chosen.sizesExact && written.sizes) {
      const at = written.sizes.findIndex((s, i) => s !== chosen.videoSizes[i]);
      if (at >= 0) throw missing(`video packet ${at} is ${written.sizes[at]} bytes, ${chosen.videoSizes[at]} chosen`);
    }
    if (chosen.audioPackets !== null) {
      const count = audio[0]?.count ?? 0;
      if (audio.length !== 1 || count !== chosen.audioPackets) {
        throw missing(`${count} audio packets written, ${chosen.audioPackets} chosen`);
      }
    }
  } else {
    // A layout the reader does not walk: decode the picture (cheap next to an encode) and count what comes out.
    const decoded = await decodedFrames(decode.ffmpeg, file, decode.signal);
    if (decoded !== frames) {
      throw new ClipError("verify_failed", `The written clip decodes to ${decoded} frames, not ${frames}.`, 500);
    }
  }
  return { durationSeconds: chosen.seconds, width: chosen.width, height: chosen.height, frames };
}

/** Decodes the first video stream and counts its frames; any decode error fails the check. */
export async function decodedFrames(ffmpeg: string, file: string, signal?: AbortSignal): Promise<number> {
  const { stdout, stderr } = await runProcess(
    ffmpeg,
    ["-v", "error", "-xerror", "-i", file, "-map", "0:v:0", "-f", "framecrc", "-"],
    { signal },
  ).catch((error: unknown) => {
    if (error instanceof ClipError && error.code === "cancelled") throw error;
    throw new ClipError("verify_failed", "The written clip does not decode.", 500);
  });
  if (stderr.trim()) throw new ClipError("verify_failed", "The written clip does not decode cleanly.", 500);
  return stdout.split("\n").filter((line) => /^\d/.test(line)).length;
}
