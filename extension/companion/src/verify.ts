import { open } from "node:fs/promises";
import { z } from "zod";
import type { Format } from "../../../app/domain/media";
import { ClipError } from "./errors";
import { runProcess } from "./ffmpeg";

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

/**
 * The check for a stream copy, without a second process: the packets and their times are known exactly from the
 * staging listing (the copy passes those packets unchanged), so what remains to check is that ffmpeg left a whole
 * container on disk: for MP4/MOV a chain of top-level boxes that starts with ftyp, holds moov and mdat and ends
 * exactly at the end of the file; for Matroska/WebM the EBML header followed by a Segment. Saves an ffprobe start
 * (~0.1–0.2 s) on a job whose own work is ~0.2 s. Outputs that are encoded keep the full read-back above.
 */
export async function checkCopiedOutput(
  file: string,
  format: Format,
  known: { seconds: number; frames: number; width: number; height: number },
): Promise<Verified> {
  const handle = await open(file, "r").catch(() => {
    throw new ClipError("verify_failed", "The written clip could not be read back.", 500);
  });
  try {
    const size = (await handle.stat()).size;
    const read = async (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, at);
      return buffer.subarray(0, bytesRead);
    };
    const broken = (why: string) => new ClipError("verify_failed", `The written clip is incomplete (${why}).`, 500);
    if (format === "mp4" || format === "mov") {
      const boxes: string[] = [];
      let at = 0;
      while (at < size && boxes.length < 1000) {
        const head = await read(at, 16);
        if (head.length < 8) throw broken("a truncated box");
        const small = head.readUInt32BE(0);
        const length =
          small === 1 && head.length >= 16 ? Number(head.readBigUInt64BE(8)) : small === 0 ? size - at : small;
        if (length < 8) throw broken("a malformed box");
        boxes.push(head.toString("latin1", 4, 8));
        at += length;
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
  } finally {
    await handle.close();
  }
  if (known.frames <= 0 || known.seconds <= 0) throw new ClipError("verify_failed", "The written clip is empty.", 500);
  return { durationSeconds: known.seconds, width: known.width, height: known.height, frames: known.frames };
}
