import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../ffmpeg";
import { withRangeProxy } from "./range-proxy";
import { inputArgs, type InputSpec } from "./source";

/** Thumbnails are small: the panel shows them beside its own frame grab. */
export const THUMBNAIL_HEIGHT = 180;
const THUMBNAIL_TIMEOUT_MS = 60_000;

/**
 * One frame of the source, decoded by ffmpeg (the cut's decoder) as a JPEG: the frame whose presentation time is
 * `ptsSeconds`, a time the plan took from the packet list. Never a typed time: `-ss t` gives the first frame at or
 * after t, a third rule that disagrees with the plan (the frame shown at t) for about a third of times. The input
 * seek goes to `seekSeconds` (before the decode time of the keyframe the plan decodes from: a fragmented MP4 is
 * sought by its fragments' decode times, so a seek to the frame itself can land on the next fragment), and the
 * frame is picked by its own timestamp, half a frame before the plan's, whatever the rounding. `-seek_timestamp 1`
 * and `-copyts` keep both on the packets' clock (not offset by the start time).
 */
export function thumbnailArgs(
  input: InputSpec,
  ptsSeconds: number,
  frameSeconds: number,
  output: string,
  seekSeconds = ptsSeconds - frameSeconds / 2,
): string[] {
  const at = ptsSeconds - frameSeconds / 2;
  return [
    "-v",
    "error",
    "-nostdin",
    "-seek_timestamp",
    "1",
    "-ss",
    Math.max(0, Math.min(seekSeconds, at)).toFixed(6),
    ...inputArgs(input),
    "-copyts",
    "-map",
    "0:v:0",
    "-frames:v",
    "1",
    "-vf",
    `select='gte(t,${at.toFixed(6)})',scale=-2:${THUMBNAIL_HEIGHT}:flags=bicubic`,
    "-fps_mode",
    "passthrough",
    "-q:v",
    "3",
    "-f",
    "image2",
    "-y",
    output,
  ];
}

/** The frames at the given presentation times (each sought from its `seekFrom`), as data:image/jpeg URLs (decoded one after the other). */
export async function frameThumbnails(
  ffmpeg: string,
  input: InputSpec,
  frames: { pts: number; seekFrom: number }[],
  frameSeconds: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const work = await mkdtemp(join(tmpdir(), "clipcut-thumb-"));
  try {
    return await withRangeProxy(input, async (proxied) => {
      const urls: string[] = [];
      for (const [i, frame] of frames.entries()) {
        const file = join(work, `${i}.jpg`);
        await runProcess(ffmpeg, thumbnailArgs(proxied, frame.pts, frameSeconds, file, frame.seekFrom), {
          signal,
          timeoutMs: THUMBNAIL_TIMEOUT_MS,
        });
        urls.push(`data:image/jpeg;base64,${(await readFile(file)).toString("base64")}`);
      }
      return urls;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
