import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssStyle } from "../../../../app/domain/captions";
import type { FrameSize } from "../../../../app/domain/crop";
import type { Format } from "../../../../app/domain/media";
import { runFfmpeg } from "../ffmpeg";
import { shortsCommand } from "./command";

export interface SpeedProbe {
  ffmpeg: string;
  /** The source's frame and the box cut from it (the picture the clip holds). */
  source: FrameSize;
  crop: { x: number; y: number; width: number; height: number } | null;
  format: Format;
  burn: boolean;
  watermark: boolean;
  /** Frames encoded for the measure (more is steadier, and slower). */
  frames?: number;
  signal?: AbortSignal;
  style?: Partial<AssStyle>;
}

/**
 * This machine's encode speed for a clip's settings, in frames per second: the same filter graph and encoder
 * (shortsCommand) on a generated picture of the source's size, so "how long it will take" is measured, not guessed.
 * The source's own decode is not in it (a generated picture costs next to nothing), so the estimate leans short.
 */
export async function measureEncodeSpeed(probe: SpeedProbe): Promise<number> {
  const fps = 30;
  const frames = probe.frames ?? 60;
  const work = await mkdtemp(join(tmpdir(), "clipcut-speed-"));
  try {
    const { width, height } = probe.source;
    const command = shortsCommand({
      videoInput: ["-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=${fps}`],
      audioInput: null,
      audioCodec: null,
      startSeconds: 0.5 / fps,
      endSeconds: (frames - 0.5) / fps,
      fps,
      source: probe.source,
      crop: probe.crop,
      scaleTo: null,
      captions: probe.burn
        ? {
            cues: [{ start: 0, end: frames / fps, text: "How long will it take to burn these captions in" }],
            mode: "burn",
            style: probe.style,
          }
        : null,
      watermark: probe.watermark,
      format: probe.format,
      output: join(work, `speed.${probe.format}`),
      workDir: work,
    });
    for (const f of command.files) await writeFile(f.path, f.text);
    const began = performance.now();
    await runFfmpeg(probe.ffmpeg, command.args, { signal: probe.signal, timeoutMs: 120_000 });
    const seconds = (performance.now() - began) / 1000;
    return command.frameCount / Math.max(seconds, 1e-3);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Seconds to encode `frameCount` frames at a measured speed (null when there is no measure). */
export function estimateEncodeSeconds(frameCount: number, framesPerSecond: number | null): number | null {
  if (!framesPerSecond || !(framesPerSecond > 0)) return null;
  return Math.round((frameCount / framesPerSecond) * 10) / 10;
}
