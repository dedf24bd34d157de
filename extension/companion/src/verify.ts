import { z } from "zod";
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
