import { spawn } from "node:child_process";
import { childEnv } from "./child-env";
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
  /** Wall-clock limit; the process group is killed when it is reached. Every child gets one. */
  timeoutMs?: number;
}

/** Grace period between SIGTERM and SIGKILL when a job is cancelled. */
const KILL_GRACE_MS = 1500;
/** Used when a caller gives no limit: nothing the companion starts may run forever. */
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/**
 * Children run in their own process group (so a cancel also stops anything they started, e.g. yt-dlp's helpers).
 * The live groups are remembered so that a crash or a stop signal takes them down with the companion.
 */
const liveGroups = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals, leaderAlive = true) {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // No such group: the leader may still run outside it (spawn raced) — but never signal a reused pid.
    if (!leaderAlive) return;
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** A child that exited with a non-zero code; keeps its stderr tail for callers that interpret it (yt-dlp). */
export class ProcessFailed extends ClipError {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super("ffmpeg_failed", message, 500);
  }
}

/** Kills every child process group still running (on exit, crash or SIGTERM). Synchronous: safe in "exit". */
export function killAllChildren(): void {
  for (const pid of liveGroups) killGroup(pid, "SIGKILL");
  liveGroups.clear();
}

let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", killAllChildren);
}

/**
 * Linux: start children through `setpriv --pdeathsig KILL`, so the kernel kills them if the companion itself is
 * killed (SIGKILL cannot be handled, and ffmpeg ignores SIGPIPE, so it would otherwise run on as an orphan).
 * Whether this setpriv can do it (util-linux ≥ 2.33) is tried once, in the background from the moment this module
 * loads: the synchronous trial it replaces held a CLI cut's first ffmpeg run back ~20 ms.
 */
const deathSignal: Promise<boolean> =
  process.platform === "linux"
    ? new Promise((resolve) => {
        const trial = spawn("setpriv", ["--pdeathsig", "KILL", "--", "true"], { stdio: "ignore" });
        const timer = setTimeout(() => trial.kill("SIGKILL"), 5000);
        trial.on("error", () => resolve(false));
        trial.on("close", (code) => {
          clearTimeout(timer);
          resolve(code === 0);
        });
      })
    : Promise.resolve(false);

async function withDeathSignal(bin: string, args: string[]): Promise<[string, string[]]> {
  return (await deathSignal) ? ["setpriv", ["--pdeathsig", "KILL", "--", bin, ...args]] : [bin, args];
}

/** Pids of the children alive now (tests check that cancel leaves none). */
export function liveChildren(): number[] {
  return [...liveGroups];
}

/** Runs a program to completion; rejects with its stderr tail on failure and with CancelledError on abort. */
export async function runProcess(
  bin: string,
  args: string[],
  options: RunOptions & { progressPipe?: boolean } = {},
): Promise<{ stdout: string; stderr: string }> {
  const { signal, onProgress } = options;
  const [command, argv] = await withDeathSignal(bin, args);
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    installExitHook();
    // detached = a new process group (POSIX), killed as a whole on cancel and timeout.
    const child = spawn(command, argv, {
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
      env: childEnv(),
    });
    const pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);
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
    let timedOut = false;
    const stop = () => {
      if (pid === undefined || killTimer) return;
      killGroup(pid, "SIGTERM");
      killTimer = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
    };
    const onAbort = () => stop();
    const limit = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, limit);
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      clearTimeout(timeout);
      if (pid !== undefined) {
        // The leader is gone; make sure nothing it started lingers in its group.
        killGroup(pid, "SIGKILL", false);
        liveGroups.delete(pid);
      }
      if (killTimer) clearTimeout(killTimer);
    };
    child.on("error", (error) => {
      done();
      reject(new ClipError("spawn_failed", `Could not start ${bin}: ${error.message}`, 500));
    });
    child.on("close", (code) => {
      done();
      if (signal?.aborted) reject(new CancelledError());
      else if (timedOut) {
        const name = bin.split(/[\\/]/).pop();
        reject(
          new ClipError("timeout", `${name} took longer than ${Math.round(limit / 1000)} s and was stopped.`, 504),
        );
      } else if (code === 0) resolve({ stdout, stderr });
      else {
        const detail = stderr.trim().split("\n").slice(-6).join("\n");
        reject(new ProcessFailed(`${bin} failed (exit ${code}): ${detail}`, code, stderr));
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

/**
 * A run started ahead of the step that needs it (the staging read beside the probe, the head beside the stage):
 * `done` settles when it ends (true when it succeeded; never rejects, a failed run is simply not used), `listen`
 * hands its progress to whoever waits for it, `stop` ends it and waits for it to be gone.
 */
export interface BackgroundRun {
  done: Promise<boolean>;
  listen(onProgress: (p: FfmpegProgress) => void): void;
  stop(): Promise<void>;
}

export function startInBackground(
  run: (options: { signal: AbortSignal; onProgress: (p: FfmpegProgress) => void }) => Promise<unknown>,
  signal?: AbortSignal,
): BackgroundRun {
  const stopper = new AbortController();
  let listener: ((p: FfmpegProgress) => void) | undefined;
  const done = run({
    signal: signal ? AbortSignal.any([signal, stopper.signal]) : stopper.signal,
    onProgress: (p) => listener?.(p),
  }).then(
    () => true,
    () => false,
  );
  return {
    done,
    listen(onProgress) {
      listener = onProgress;
    },
    async stop() {
      stopper.abort();
      await done;
    },
  };
}
