import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { run, tempBeside } from "../../../extension/companion/test/media";

/**
 * The browsers' pixel-indexed source and its reading (Chromium's extension-shorts spec and the Firefox suite share
 * them): every column and every frame carry their own index in pixels, luma only, black and white blocks, through a
 * lossy encode (the idea of extension/companion/test/shorts-media.ts, in 128 rows).
 *
 * 640 × 128: every aspect's box has a short side below 144 px (9:16: 72 × 128, 1:1: 128 × 128, 4:5: 102 × 128), so no
 * clip is scaled (a box is scaled down to the quality its short side reaches, 144p at the least) and each column can
 * be read one by one. In the page's 640 × 360 <video> the picture is letterboxed: bars above and below.
 * - rows 0–59: the column's index in a 10-bit Gray code, 6 rows a bit (no stripe narrower than 2 px: even crops);
 * - rows 60–87: the frame's index, 7 bits of 4 rows, read at the picture's left edge (the Free plan's mark is bottom
 *   right);
 * - rows 88–127: black, where burned-in captions are drawn (their text sits 20 % of the height above the bottom).
 */
export const SRC_W = 640;
export const SRC_H = 128;
export const SRC_FPS = 30;
export const SRC_SECONDS = 4;
const COLUMN_BITS = 10;
const COLUMN_ROWS = 6;
const FRAME_TOP = COLUMN_BITS * COLUMN_ROWS;
const FRAME_BITS = 7;
const FRAME_ROWS = 4;
const CAPTION_TOP = FRAME_TOP + FRAME_BITS * FRAME_ROWS;
/** Below this the Free plan's mark may reach into a narrow box; a caption line's text sits above it. */
const CAPTION_BOTTOM = 106;

/** The file's name says its layout: a source made by another layout is never read by this one. */
export const INDEX_FILE = "index-columns-640x128-v3.mp4";

export async function makeIndexSource(path: string): Promise<void> {
  if (existsSync(path)) return;
  const bit = (value: string, b: string) => `mod(floor(${value}/pow(2,${b})),2)`;
  const colBit = `floor(Y/${COLUMN_ROWS})`;
  const lum =
    `if(lt(Y,${FRAME_TOP}),255*mod(floor(X/pow(2,${colBit}))+floor(X/pow(2,${colBit}+1)),2),` +
    `if(lt(Y,${CAPTION_TOP}),255*${bit("N", `floor((Y-${FRAME_TOP})/${FRAME_ROWS})`)},16))`;
  const tmp = tempBeside(path, ".mp4");
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i"],
    `testsrc2=size=${SRC_W}x${SRC_H}:rate=${SRC_FPS},format=gray,geq=lum='${lum}',format=yuv420p`,
    ...["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", String(SRC_SECONDS)],
    // B-frames and 1 s GOPs, as a download has them: a start handle's frame is not a keyframe.
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-bf", "2", "-g", "30", "-keyint_min", "30"],
    ...["-sc_threshold", "0", "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", tmp],
  ]);
  await rename(tmp, path);
}

/** Every frame of a clip's picture as 8-bit gray. */
export async function grayFrames(file: string, width: number, height: number): Promise<Buffer[]> {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-i", file, "-map", "0:v:0", "-vf", "format=gray", "-fps_mode", "passthrough"],
    ...["-f", "rawvideo", "pipe:1"],
  ]);
  const size = width * height;
  const frames: Buffer[] = [];
  for (let i = 0; i + size <= stdout.length; i += size) frames.push(stdout.subarray(i, i + size));
  return frames;
}

const isSet = (frame: Buffer, width: number, x: number, y: number) => (frame[y * width + x] ?? 0) > 128;

/** The source column each column of a picture shows. */
export function columnIndices(frame: Buffer, width: number): number[] {
  return Array.from({ length: width }, (_, x) => {
    let gray = 0;
    for (let b = 0; b < COLUMN_BITS; b++) if (isSet(frame, width, x, b * COLUMN_ROWS + COLUMN_ROWS / 2)) gray |= 1 << b;
    let n = gray;
    for (let shift = gray >> 1; shift; shift >>= 1) n ^= shift;
    return n;
  });
}

/** The source frame a picture shows. */
export function frameIndex(frame: Buffer, width: number): number {
  let n = 0;
  for (let b = 0; b < FRAME_BITS; b++)
    if (isSet(frame, width, 2, FRAME_TOP + b * FRAME_ROWS + FRAME_ROWS / 2)) n |= 1 << b;
  return n;
}

/** Bright pixels where the source is black and a caption line's text is drawn. */
export function captionPixels(frame: Buffer, width: number): number {
  let n = 0;
  for (let y = CAPTION_TOP; y < CAPTION_BOTTOM; y++)
    for (let x = 0; x < width; x++) if ((frame[y * width + x] ?? 0) > 200) n++;
  return n;
}

/** What a written clip holds, read from its pixels: how many frames, which source frames and columns. */
export interface ClipReading {
  frames: number;
  firstFrame: number;
  lastFrame: number;
  firstColumns: number[];
  lastColumns: number[];
}

/** Reads a clip of a box of the source (its picture the box's own size: no clip of this source is scaled). */
export async function readClip(file: string, box: { width: number; height: number }): Promise<ClipReading> {
  const frames = await grayFrames(file, box.width, box.height);
  const first = frames[0] ?? Buffer.alloc(0);
  const last = frames[frames.length - 1] ?? Buffer.alloc(0);
  return {
    frames: frames.length,
    firstFrame: frameIndex(first, box.width),
    lastFrame: frameIndex(last, box.width),
    firstColumns: columnIndices(first, box.width),
    lastColumns: columnIndices(last, box.width),
  };
}

/** The reading a clip of `box` from source frame `first` to `last` must give. */
export function expectedReading(box: { x: number; width: number }, first: number, last: number): ClipReading {
  const columns = Array.from({ length: box.width }, (_, i) => box.x + i);
  return { frames: last - first + 1, firstFrame: first, lastFrame: last, firstColumns: columns, lastColumns: columns };
}

/**
 * The stand-in video's caption track: two cues on known frames of the 30 fps source, each time a frame's start
 * floored to the millisecond as caption files write them: A on frames 30–49, B on frames 55–64.
 */
export const CAPTIONS_FILE = "index-captions.en.vtt";
export const CAPTIONS_VTT = `WEBVTT

00:00:01.000 --> 00:00:01.666
Cue A here

00:00:01.833 --> 00:00:02.166
Cue B here
`;
export const CUE_FRAMES: [number, number][] = [
  [30, 50],
  [55, 65],
];

/** The clip frames (0 = the clip's first) that show a cue, for a clip of source frames first…last. */
export function cueFramesOnClip(first: number, last: number): number[] {
  const out: number[] = [];
  for (const [a, b] of CUE_FRAMES) for (let n = Math.max(a, first); n < Math.min(b, last + 1); n++) out.push(n - first);
  return out;
}

/** The cue times a soft track must hold on the clip's clock: each cue's first and end frame, floored to the ms. */
export function shiftedCueTimes(first: number, last: number): [number, number][] {
  const ms = (frames: number) => Math.floor((frames / SRC_FPS) * 1000) / 1000;
  return CUE_FRAMES.map(([a, b]) => [Math.max(a, first) - first, Math.min(b, last + 1) - first] as const)
    .filter(([a, b]) => b > a)
    .map(([a, b]) => [ms(a), ms(b)]);
}

/** The cue times a file's caption track holds, in seconds (mov_text's empty gap samples left out). */
export async function softTrackTimes(file: string): Promise<[number, number][]> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time,size"],
    ...["-of", "json", file],
  ]);
  const parsed = JSON.parse(stdout.toString()) as {
    packets?: { pts_time?: string; duration_time?: string; size?: string }[];
  };
  return (parsed.packets ?? [])
    .filter((p) => Number(p.size) > 2)
    .map((p) => {
      const pts = Number(p.pts_time);
      return [pts, Math.round((pts + Number(p.duration_time)) * 1e6) / 1e6];
    });
}
