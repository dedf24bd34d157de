import { cachedReading, run } from "./media";

/** Frames decoded to small grayscale images, for comparing pictures rather than timestamps. */
export const W = 128;
export const H = 72;
const SIZE = W * H;

const GRAY = ["-map", "0:v:0", "-vf", `scale=${W}:${H},format=gray`, "-fps_mode", "passthrough", "-f", "rawvideo"];

export async function decodeGray(file: string, extra: string[] = []): Promise<Buffer[]> {
  const { stdout } = await run("ffmpeg", ["-v", "error", ...extra, "-i", file, ...GRAY, "pipe:1"]);
  return split(stdout);
}

/** decodeGray of a whole generated source (the media folder's), decoded once and kept beside it (cachedReading). */
export async function sourceGray(file: string): Promise<Buffer[]> {
  return split(await cachedReading(file, [...GRAY, "pipe:1"]));
}

function split(raw: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  for (let i = 0; i + SIZE <= raw.length; i += SIZE) frames.push(raw.subarray(i, i + SIZE));
  return frames;
}

/** Mean absolute difference of two gray frames (0–255). */
export function mad(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < SIZE; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / SIZE;
}

/** Index of the source frame that looks most like `frame`, searched around `near`. */
export function bestMatch(frame: Buffer, source: Buffer[], near: number, radius = 4): { index: number; diff: number } {
  let best = { index: -1, diff: Infinity };
  for (let i = Math.max(0, near - radius); i <= Math.min(source.length - 1, near + radius); i++) {
    const f = source[i];
    if (!f) continue;
    const diff = mad(frame, f);
    if (diff < best.diff) best = { index: i, diff };
  }
  return best;
}

/** Mean absolute difference inside a rectangle given in fractions of the frame. */
export function regionDiff(a: Buffer, b: Buffer, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.floor(y0 * H); y < Math.floor(y1 * H); y++) {
    for (let x = Math.floor(x0 * W); x < Math.floor(x1 * W); x++) {
      sum += Math.abs((a[y * W + x] ?? 0) - (b[y * W + x] ?? 0));
      n++;
    }
  }
  return n ? sum / n : 0;
}
