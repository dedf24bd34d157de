import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, stat, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";

/** Test/bench media: moving content, a burned-in frame counter, fixed 2 s GOPs, B-frames, moov at the front. */
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

export function run(bin: string, args: string[]): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve({ stdout: Buffer.concat(out), stderr: err })
        : reject(new Error(`${bin} exit ${code}: ${err.slice(-2000)}`)),
    );
  });
}

/**
 * Where a file is written before it is renamed into place: a name of this process's own, so that two runs making the
 * same file at once (two test workers) never write into one file, and an interrupted run leaves no half file behind.
 */
export const tempBeside = (path: string, ext: string) =>
  `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp${ext}`;

/**
 * Files derived from sources in `dir` with one ffmpeg run each (`-i name` is read in `dir`), made once: a file
 * already there is kept, and a run writes under a temporary name first, so an interrupted run leaves no half file.
 */
export async function makeDerived(dir: string, derived: Record<string, string[]>): Promise<void> {
  for (const [name, args] of Object.entries(derived)) {
    const out = join(dir, name);
    if (existsSync(out)) continue;
    const input = args.map((a, i) => (args[i - 1] === "-i" ? join(dir, a) : a));
    const tmp = tempBeside(out, extname(out));
    await run("ffmpeg", ["-v", "error", "-y", ...input, tmp]);
    await rename(tmp, out);
  }
}

let ffmpegBuild: Promise<string> | undefined;

/**
 * What ffmpeg prints from one reading of a generated source (`ffmpeg -v error -i source …args`, stdout), kept beside
 * the source so that the run after this one reads it instead of decoding the whole source again (a 1080p source's
 * frames cost ~6 CPU-s to decode). The kept file's name carries what makes the bytes: the arguments, the source's
 * size and time, and ffmpeg's build (its -version text): a regenerated source or another ffmpeg reads afresh.
 * Only for sources nothing writes to while the suite runs (the media folder's).
 */
export async function cachedReading(source: string, args: string[]): Promise<Buffer> {
  ffmpegBuild ??= run("ffmpeg", ["-version"]).then(({ stdout }) => stdout.toString());
  const { size, mtimeMs } = await stat(source);
  const key = createHash("sha256")
    .update(JSON.stringify([args, size, mtimeMs, await ffmpegBuild]))
    .digest("hex")
    .slice(0, 16);
  const kept = `${source}.reading-${key}`;
  try {
    return await readFile(kept);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const { stdout } = await run("ffmpeg", ["-v", "error", "-i", source, ...args]);
  // Under a name of this process's own, then renamed: two workers reading the same source at once each write their
  // own copy, and the one renamed last wins with the same bytes.
  const tmp = tempBeside(kept, "");
  await writeFile(tmp, stdout);
  await rename(tmp, kept);
  return stdout;
}

export interface VideoSourceOptions {
  width: number;
  height: number;
  seconds: number;
  videoBitrate: string;
  fps?: number;
}

export async function makeVideoSource(path: string, o: VideoSourceOptions): Promise<void> {
  if (existsSync(path)) return;
  const fps = o.fps ?? 30;
  const counter = existsSync(FONT)
    ? `,drawtext=fontfile=${FONT}:text='%{n}':fontsize=${Math.round(o.height / 3)}:fontcolor=white:box=1:boxcolor=black:x=20:y=20`
    : "";
  const tmp = tempBeside(path, ".mp4");
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${o.width}x${o.height}:rate=${fps}${counter}`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000:beep_factor=4",
    "-t",
    String(o.seconds),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-bf",
    "2",
    "-g",
    String(2 * fps),
    "-keyint_min",
    String(2 * fps),
    "-sc_threshold",
    "0",
    "-b:v",
    o.videoBitrate,
    "-maxrate",
    o.videoBitrate,
    "-bufsize",
    "4M",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-b:a",
    "96k",
    "-movflags",
    "+faststart",
    tmp,
  ]);
  await rename(tmp, path);
}

export async function makeAudioSource(path: string, seconds: number): Promise<void> {
  if (existsSync(path)) return;
  const tmp = tempBeside(path, ".m4a");
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=660:sample_rate=44100:beep_factor=2",
    "-t",
    String(seconds),
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-movflags",
    "+faststart",
    tmp,
  ]);
  await rename(tmp, path);
}

/** Splits a progressive MP4 into a DASH pair, as YouTube serves it: video-only MP4 and audio-only M4A (stream copy). */
export async function makeDashPair(source: string, videoPath: string, audioPath: string): Promise<void> {
  if (!existsSync(videoPath)) {
    const tmp = tempBeside(videoPath, ".mp4");
    await run("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-i",
      source,
      "-map",
      "0:v:0",
      "-c",
      "copy",
      "-movflags",
      "+faststart",
      tmp,
    ]);
    await rename(tmp, videoPath);
  }
  if (!existsSync(audioPath)) {
    const tmp = tempBeside(audioPath, ".m4a");
    await run("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-i",
      source,
      "-map",
      "0:a:0",
      "-c",
      "copy",
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      tmp,
    ]);
    await rename(tmp, audioPath);
  }
}

/** A VP9 video-only WebM (2 s GOPs, frame counter) like YouTube's 1440p/4K streams, and an Opus audio-only WebM. */
export async function makeVp9Source(path: string, o: VideoSourceOptions): Promise<void> {
  if (existsSync(path)) return;
  const fps = o.fps ?? 30;
  const counter = existsSync(FONT)
    ? `,drawtext=fontfile=${FONT}:text='%{n}':fontsize=${Math.round(o.height / 3)}:fontcolor=white:box=1:boxcolor=black:x=20:y=20`
    : "";
  const tmp = tempBeside(path, ".webm");
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${o.width}x${o.height}:rate=${fps}${counter}`,
    "-t",
    String(o.seconds),
    "-c:v",
    "libvpx-vp9",
    "-deadline",
    "realtime",
    "-cpu-used",
    "8",
    "-row-mt",
    "1",
    "-g",
    String(2 * fps),
    "-keyint_min",
    String(2 * fps),
    "-b:v",
    o.videoBitrate,
    "-pix_fmt",
    "yuv420p",
    tmp,
  ]);
  await rename(tmp, path);
}

export async function makeOpusSource(path: string, seconds: number): Promise<void> {
  if (existsSync(path)) return;
  const tmp = tempBeside(path, ".webm");
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000:beep_factor=4",
    "-t",
    String(seconds),
    "-c:a",
    "libopus",
    "-b:a",
    "96k",
    tmp,
  ]);
  await rename(tmp, path);
}

/** A small AV1 video-only WebM (SVT-AV1, fast), for the codec smart cut does not join. */
export async function makeAv1Source(path: string, seconds: number): Promise<void> {
  if (existsSync(path)) return;
  const tmp = tempBeside(path, ".webm");
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=256x144:rate=30", "-t", String(seconds)],
    ...["-c:v", "libsvtav1", "-preset", "12", "-g", "60", "-pix_fmt", "yuv420p", "-svtav1-params", "fast-decode=1"],
    tmp,
  ]);
  await rename(tmp, path);
}

/**
 * VP9 with hidden alt-ref frames (libvpx's two-pass-style lookahead: lag-in-frames + auto-alt-ref), each carried in
 * a superframe with the next shown frame, plus an Opus track. Single-threaded "good" encoding, so the packets are
 * the same on every run (realtime multi-threaded libvpx is not: its rate control reads the clock).
 */
export async function makeVp9AltRefSource(path: string, seconds: number): Promise<void> {
  if (existsSync(path)) return;
  const tmp = tempBeside(path, ".webm");
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi"],
    ...[
      "-i",
      "sine=frequency=330:sample_rate=48000:beep_factor=3",
      "-t",
      String(seconds),
      "-map",
      "0:v",
      "-map",
      "1:a",
    ],
    ...["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "8", "-threads", "1", "-lag-in-frames", "16"],
    ...["-auto-alt-ref", "1", "-g", "60", "-keyint_min", "60", "-b:v", "300k", "-pix_fmt", "yuv420p"],
    ...["-c:a", "libopus", "-b:a", "64k", tmp],
  ]);
  await rename(tmp, path);
}
