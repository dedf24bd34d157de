import { spawn } from "node:child_process";
import { bestMatch, decodeGray } from "../../extension/companion/test/frames";
import { run } from "../../extension/companion/test/media";

/** Wall time of an external command. */
export function timeCommand(bin: string, args: string[]): Promise<{ seconds: number; ok: boolean; stderr: string }> {
  const began = performance.now();
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on("error", () => resolve({ seconds: 0, ok: false, stderr: "not found" }));
    child.on("close", (code) => resolve({ seconds: (performance.now() - began) / 1000, ok: code === 0, stderr }));
  });
}

export interface Accuracy {
  /** First frame a player shows, minus the requested frame (frames; negative = starts early). */
  startErrorFrames: number;
  durationSeconds: number;
  /** Frames present in the file but hidden by an edit list ("ghost" lead-in). */
  hiddenFrames: number;
}

async function frameCount(file: string, ignoreEditList: boolean): Promise<number> {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    ...(ignoreEditList ? ["-ignore_editlist", "1"] : []),
    "-count_frames",
    "-select_streams",
    "v:0",
    "-show_entries",
    "stream=nb_read_frames",
    "-of",
    "csv=p=0",
    file,
  ]);
  return Number(stdout.toString().trim().split(",")[0]);
}

/** Compares the output's first shown picture with the source frames around the requested start. */
export async function measureAccuracy(
  output: string,
  source: string,
  startSeconds: number,
  fps: number,
): Promise<Accuracy> {
  const lead = 4;
  const from = Math.max(0, startSeconds - lead);
  const ref = await decodeGray(source, ["-ss", from.toFixed(3), "-t", String(lead + 1)]);
  const out = await decodeGray(output, ["-t", "0.2"]);
  const requestedIndex = Math.round((startSeconds - from) * fps);
  const match = bestMatch(out[0]!, ref, requestedIndex, lead * fps);
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_entries",
    "format=duration",
    "-of",
    "csv=p=0",
    output,
  ]);
  const shown = await frameCount(output, false);
  const stored = await frameCount(output, true);
  return {
    startErrorFrames: match.index - requestedIndex,
    durationSeconds: Number(stdout.toString().trim()),
    hiddenFrames: Math.max(0, stored - shown),
  };
}
