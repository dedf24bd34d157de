import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { run } from "./media";

/**
 * Media whose frame number can be read from the pixels: the top BAND_ROWS rows hold BAND_BITS cells, white for a 1
 * bit of the frame's index (least significant bit on the left), black for a 0. Large cells survive H.264, JPEG and
 * scaling; a reader only looks at each cell's middle. Used by the companion's dry-run tests and the panel's e2e.
 */
export const BAND_WIDTH = 640;
export const BAND_HEIGHT = 360;
export const BAND_BITS = 12;
const CELL = Math.floor(BAND_WIDTH / BAND_BITS);
const BAND_ROWS = 32;

export interface FrameBandOptions {
  fps: string;
  seconds: number;
  /** Frames per GOP (x264 keyframes exactly every `gop` frames). */
  gop: number;
}

export async function makeFrameBandSource(path: string, o: FrameBandOptions): Promise<void> {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const bit = `255*mod(floor(N/pow(2,floor(X/${CELL}))),2)`;
  const band = [
    `geq=lum='if(lt(Y,${BAND_ROWS}),if(lt(X,${CELL * BAND_BITS}),${bit},0),lum(X,Y))'`,
    `cb='if(lt(Y,${BAND_ROWS}*SH),128,cb(X,Y))'`,
    `cr='if(lt(Y,${BAND_ROWS}*SH),128,cr(X,Y))'`,
  ].join(":");
  const tmp = `${path}.tmp.mp4`;
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${BAND_WIDTH}x${BAND_HEIGHT}:rate=${o.fps},${band}`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000",
    "-t",
    String(o.seconds),
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "20",
    "-bf",
    "2",
    "-g",
    String(o.gop),
    "-keyint_min",
    String(o.gop),
    "-sc_threshold",
    "0",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-b:a",
    "64k",
    "-movflags",
    "+faststart",
    tmp,
  ]);
  await run("mv", [tmp, path]);
}

/** The frame number in a gray picture `width` pixels wide (its top rows are the band). */
export function readBand(gray: Uint8Array | Buffer, width: number): number {
  const scale = width / BAND_WIDTH;
  const row = Math.floor((BAND_ROWS / 2) * scale);
  let n = 0;
  for (let b = 0; b < BAND_BITS; b++) {
    const x = Math.floor((b * CELL + CELL / 2) * scale);
    if ((gray[row * width + x] ?? 0) > 128) n |= 1 << b;
  }
  return n;
}

/** Every frame's number, in presentation order, as ffmpeg decodes the file (or the part `extra` selects). */
export async function decodeBands(file: string, extra: string[] = []): Promise<number[]> {
  const { stdout } = await run("ffmpeg", [
    "-v",
    "error",
    ...extra,
    "-i",
    file,
    "-map",
    "0:v:0",
    "-vf",
    `scale=${BAND_WIDTH}:${BAND_HEIGHT},format=gray`,
    "-fps_mode",
    "passthrough",
    "-f",
    "rawvideo",
    "pipe:1",
  ]);
  const size = BAND_WIDTH * BAND_HEIGHT;
  const frames: number[] = [];
  for (let i = 0; i + size <= stdout.length; i += size) frames.push(readBand(stdout.subarray(i, i + size), BAND_WIDTH));
  return frames;
}
