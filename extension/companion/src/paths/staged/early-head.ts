import { readFile } from "node:fs/promises";
import { CancelledError } from "../../errors";
import { runFfmpeg, startInBackground, type BackgroundRun, type FfmpegProgress } from "../../ffmpeg";
import { planFrames, type CutFrames } from "../keyframes";
import { parseListing, type StagedPackets } from "./listing";
import type { Step } from "./plan";

/**
 * The smart cut's head encode, started while the stage is still being written (the head is most of a
 * smart cut, and it used to wait for the whole staging read). The staging run flushes its listing line by line; as soon
 * as the listing holds the first keyframe after the start and every frame shown before it, the head's frames and
 * its rate cap are known, and its encoder reads the stage as it grows (`-follow 1`). The plan built after the stage
 * adopts it when its step is exactly the one the plan would run; otherwise it is stopped and the plan runs its own.
 */
export interface EarlyHead extends BackgroundRun {
  /** The step as the plan builds it (without the options that make it follow the stage). */
  step: Step;
}

const POLL_MS = 10;

/**
 * Watches the listing of a staging run until the head's frames are all listed: the first keyframe after the start
 * frame, and a packet decoded at or after that keyframe's time (so every frame shown before it has been listed,
 * B-frames included). Null when the stage ends first, when no head is needed, or on abort.
 */
export async function waitForHead(o: {
  listing: string;
  clockTicks: number;
  startTick: number;
  endTick: number;
  stageDone: Promise<unknown>;
  signal?: AbortSignal;
}): Promise<{ frames: CutFrames; staged: StagedPackets } | null> {
  let ended = false;
  void o.stageDone.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended && !o.signal?.aborted) {
    const text = await readFile(o.listing, "utf8").catch(() => "");
    const staged = parseListing(text, o.clockTicks);
    const video = staged.video;
    if (video.length > 1) {
      const frames = planFrames(video, o.startTick, o.endTick);
      const key = frames.keyAfterStart;
      // Once a packet decoded after the start is listed, so is every frame shown up to it: the start frame is known,
      // and a keyframe there needs no head.
      const startKnown = video.some((p) => p.dts > o.startTick);
      if (startKnown && frames.startOnKey) return null;
      if (startKnown && key !== null && video.some((p) => p.dts >= key)) return { frames, staged };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/** Runs `step` on the stage as it is written. */
export function startEarlyHead(
  ffmpeg: string,
  step: Step,
  options: { signal?: AbortSignal; timeoutMs: number },
): EarlyHead {
  // -follow: at the end of what is written so far, wait for more (30 s without a byte is an error). Not seekable:
  // the demuxers would otherwise read the file's end at open (MPEG-TS for its duration, Matroska for its index) and
  // wait there for the stage to end. The stage's header describes its streams: no need to probe into the payload.
  const follow = ["-follow", "1", "-seekable", "0", "-rw_timeout", "30000000", "-probesize", "32768"];
  follow.push("-analyzeduration", "0");
  const run = startInBackground(
    ({ signal, onProgress }) =>
      runFfmpeg(ffmpeg, [...follow, ...step.args], { signal, timeoutMs: options.timeoutMs, onProgress }),
    options.signal,
  );
  return { ...run, step };
}

/**
 * Start, then adopt if identical: the plan's step that is exactly the early run (same arguments) takes it over, and
 * `finish` waits for it (reporting its progress, stopped with the step's signal; false when it failed, so the step
 * runs the usual way). When no step is identical the early run is stopped and null is returned.
 */
export async function adoptIfSame(
  early: EarlyHead | null,
  steps: Step[],
): Promise<{
  step: Step;
  finish(signal: AbortSignal, onProgress?: (p: FfmpegProgress) => void): Promise<boolean>;
} | null> {
  if (!early) return null;
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((arg, i) => arg === b[i]);
  const step = steps.find((s) => same(s.args, early.step.args));
  if (!step) {
    await early.stop();
    return null;
  }
  return {
    step,
    async finish(signal, onProgress) {
      if (onProgress) early.listen(onProgress);
      const stop = () => void early.stop();
      signal.addEventListener("abort", stop, { once: true });
      const ok = await early.done.finally(() => signal.removeEventListener("abort", stop));
      if (signal.aborted) throw new CancelledError();
      return ok;
    },
  };
}
