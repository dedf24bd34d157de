import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFfmpeg } from "../src/ffmpeg";
import { shortsCommand, type ShortsCommand, type ShortsJob } from "../src/shorts";
import { run, tempBeside } from "./media";

/**
 * A source whose pixels say where they come from, through a lossy encode (luma only, black and white blocks):
 * - rows 0–79: the frame's index, 8 bits, a 10-row stripe each (white = 1), across the whole width;
 * - rows 80–219: the column's index in a Gray code, 10 bits, a 14-row stripe each (no stripe narrower than 2 pixels:
 *   an even crop can be read exactly);
 * - rows 220 and down: black, where captions are looked for.
 */
export const SRC_W = 640;
export const SRC_H = 360;
export const SRC_FPS = 30;
export const SRC_SECONDS = 4;
const FRAME_ROWS = 10;
const FRAME_BITS = 8;
const COLUMN_TOP = 80;
const COLUMN_ROWS = 14;
const COLUMN_BITS = 10;
export const CAPTION_TOP = 220;

export async function makeIndexSource(path: string): Promise<void> {
  if (existsSync(path)) return;
  const bit = (value: string, b: string) => `mod(floor(${value}/pow(2,${b})),2)`;
  const colBit = `floor((Y-${COLUMN_TOP})/${COLUMN_ROWS})`;
  const lum =
    `if(lt(Y,${FRAME_ROWS * FRAME_BITS}),255*${bit("N", `floor(Y/${FRAME_ROWS})`)},` +
    `if(lt(Y,${COLUMN_TOP + COLUMN_ROWS * COLUMN_BITS}),` +
    `255*mod(floor(X/pow(2,${colBit}))+floor(X/pow(2,${colBit}+1)),2),16))`;
  const tmp = tempBeside(path, ".mp4");
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${SRC_W}x${SRC_H}:rate=${SRC_FPS},format=gray,geq=lum='${lum}',format=yuv420p`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000",
    "-t",
    String(SRC_SECONDS),
    // B-frames and 1 s GOPs, as a download has them: the start is never simply the file's first frame.
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-bf", "2", "-g", "30", "-keyint_min", "30"],
    ...["-sc_threshold", "0", "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", tmp],
  ]);
  await rename(tmp, path);
}

export interface GrayFrames {
  width: number;
  height: number;
  frames: Buffer[];
}

/** Every frame of a file's picture as 8-bit gray, at its own size. */
export async function decodeGrayFrames(file: string, width: number, height: number): Promise<GrayFrames> {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-i", file, "-map", "0:v:0", "-vf", "format=gray", "-fps_mode", "passthrough"],
    ...["-f", "rawvideo", "pipe:1"],
  ]);
  const size = width * height;
  const frames: Buffer[] = [];
  for (let i = 0; i + size <= stdout.length; i += size) frames.push(stdout.subarray(i, i + size));
  return { width, height, frames };
}

const isSet = (frame: Buffer, width: number, x: number, y: number) => (frame[y * width + x] ?? 0) > 128;

/** The source frame a picture shows (read across its middle column). */
export function frameIndex(frame: Buffer, width: number): number {
  let n = 0;
  const x = Math.floor(width / 2);
  for (let b = 0; b < FRAME_BITS; b++) if (isSet(frame, width, x, b * FRAME_ROWS + FRAME_ROWS / 2)) n |= 1 << b;
  return n;
}

/** The source column each of a picture's columns shows. */
export function columnIndices(frame: Buffer, width: number): number[] {
  const out: number[] = [];
  for (let x = 0; x < width; x++) {
    let gray = 0;
    for (let b = 0; b < COLUMN_BITS; b++) {
      if (isSet(frame, width, x, COLUMN_TOP + b * COLUMN_ROWS + COLUMN_ROWS / 2)) gray |= 1 << b;
    }
    // Gray code back to binary.
    let n = gray;
    for (let shift = gray >> 1; shift; shift >>= 1) n ^= shift;
    out.push(n);
  }
  return out;
}

/** Bright pixels below the column stripes: where captions are drawn. */
export function captionPixels(frame: Buffer, width: number, height: number): number {
  let n = 0;
  for (let y = CAPTION_TOP; y < height; y++) for (let x = 0; x < width; x++) if ((frame[y * width + x] ?? 0) > 200) n++;
  return n;
}

const made: string[] = [];

/** A folder of this test's own (removed by removeWorkDirs). */
export const workDir = async (name: string) => {
  const base = join(tmpdir(), "clipcut-shorts-tests");
  await mkdir(base, { recursive: true });
  const dir = await mkdtemp(join(base, `${name}-`));
  made.push(dir);
  return dir;
};

/** Removes the folders this test file made. */
export async function removeWorkDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Runs the builder's command as the companion will: its files written first, then ffmpeg. */
export async function runShorts(job: ShortsJob): Promise<ShortsCommand> {
  const command = shortsCommand(job);
  for (const f of command.files) await writeFile(f.path, f.text);
  await runFfmpeg("ffmpeg", command.args, { timeoutMs: 110_000 });
  if (command.sidecar) await writeFile(command.sidecar.path, command.sidecar.text);
  return command;
}

/** ffprobe's packets of one stream type: times and sizes. */
export async function probePackets(
  file: string,
  stream: "v" | "a" | "s",
): Promise<{ pts: number; duration: number; size: number }[]> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", `${stream}:0`, "-show_entries", "packet=pts_time,duration_time,size"],
    ...["-of", "json", file],
  ]);
  const parsed = JSON.parse(stdout.toString()) as {
    packets?: { pts_time?: string; duration_time?: string; size?: string }[];
  };
  return (parsed.packets ?? []).map((p) => ({
    pts: Number(p.pts_time),
    duration: Number(p.duration_time),
    size: Number(p.size),
  }));
}

export async function probeStreams(file: string): Promise<{ codec_type: string; codec_name: string }[]> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-show_entries", "stream=codec_type,codec_name", "-of", "json", file],
  ]);
  return (JSON.parse(stdout.toString()) as { streams: { codec_type: string; codec_name: string }[] }).streams;
}
