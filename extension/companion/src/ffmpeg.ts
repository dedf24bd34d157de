import { spawn } from "node:child_process";
import { CancelledError, ClipError } from "./errors";

/** One `-progress` report from ffmpeg. */
export interface FfmpegProgress {
  /** Output timestamp reached, in seconds (as ffmpeg sees it, before any ts offset is removed). */
  outTimeSeconds: number | null;
  frame: number | null;
  /** ffmpeg's realtime factor, e.g. 4.2 for "4.2x". */
  speed: number | null;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: FfmpegProgress) => void;
}

/** Grace period between SIGTERM and SIGKILL when a job is cancelled. */
const KILL_GRACE_MS = 1500;

/** Runs a program to completion; rejects with its stderr tail on failure and with CancelledError on abort. */
export function runProcess(bin: string, args: string[], options: RunOptions & { progressPipe?: boolean } = {}) {
  const { signal, onProgress } = options;
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let pending: Partial<Record<string, string>> = {};
    let lineBuffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (!options.progressPipe) {
        stdout += chunk.toString();
        return;
      }
      lineBuffer += chunk.toString();
      const lines = lineBuffer.split("\n");
      lineBuffer = lines.pop() ?? "";
      for (const line of lines) {
        const eq = line.indexOf("=");
        if (eq < 0) continue;
        const key = line.slice(0, eq).trim();
        const value = line.slice(eq + 1).trim();
        pending[key] = value;
        if (key === "progress") {
          onProgress?.(parseProgress(pending));
          pending = {};
        }
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      // Keep only the tail: errors are at the end and long runs must not grow memory.
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new ClipError("spawn_failed", `Could not start ${bin}: ${error.message}`, 500));
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (signal?.aborted) reject(new CancelledError());
      else if (code === 0) resolve({ stdout, stderr });
      else {
        const detail = stderr.trim().split("\n").slice(-6).join("\n");
        reject(new ClipError("ffmpeg_failed", `${bin} failed (exit ${code}): ${detail}`, 500));
      }
    });
  });
}

function parseProgress(kv: Partial<Record<string, string>>): FfmpegProgress {
  const outUs = kv.out_time_us ?? kv.out_time_ms; // out_time_ms is microseconds too (historic name)
  const outTime = outUs !== undefined && /^-?\d+$/.test(outUs) ? Number(outUs) / 1e6 : null;
  const frame = kv.frame !== undefined && /^\d+$/.test(kv.frame) ? Number(kv.frame) : null;
  const speedMatch = /^([\d.]+)x$/.exec(kv.speed ?? "");
  return { outTimeSeconds: outTime, frame, speed: speedMatch ? Number(speedMatch[1]) : null };
}

/** ffmpeg with quiet logging and machine-readable progress on stdout. */
export function runFfmpeg(ffmpeg: string, args: string[], options: RunOptions = {}) {
  return runProcess(
    ffmpeg,
    ["-hide_banner", "-nostdin", "-v", "error", "-nostats", "-progress", "pipe:1", "-y", ...args],
    {
      ...options,
      progressPipe: true,
    },
  );
}
