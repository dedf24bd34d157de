import { readFile } from "node:fs/promises";
import { isAudioFormat } from "../../../app/domain/media";
import { runFfmpeg, type FfmpegProgress } from "./ffmpeg";
import { planFrames, type CutFrames } from "./keyframes";
import { parseListing, type StagedPackets } from "./listing";
import type { Step } from "./plan";
import type { CutRequest } from "./request";
import { reencodeReasons, SMART_CODECS } from "./strategy";

/**
 * The smart cut's head encode, started while the stage is still being written (issue 22: the head is most of a
 * smart cut, and it waited for the whole staging read). The staging run flushes its listing line by line; as soon
 * as the listing holds the first keyframe after the start and every frame shown before it, the head's frames and
 * its rate cap are known, and its encoder reads the stage as it grows (`-follow 1`). The plan built after the stage
 * adopts it when its step is exactly the one the plan would run; otherwise it is stopped and the plan runs its own.
 */
export interface EarlyHead {
  /** The step as the plan builds it (without the options that make it follow the stage). */
  step: Step;
  /** Settles when the run ends: true when it succeeded. Never rejects. */
  done: Promise<boolean>;
  /** Progress of the run, from the moment the plan adopts it. */
  listen(onProgress: (p: FfmpegProgress) => void): void;
  stop(): Promise<void>;
}

/** Known before any media is read: the cut will be a smart cut, so a head may be needed. */
export function mayNeedHead(req: CutRequest): boolean {
  const video = req.info.video;
  if (!video || isAudioFormat(req.format) || !SMART_CODECS.has(video.codec)) return false;
  if (reencodeReasons(req).length > 0) return false;
  return req.strategy === "smart" || (req.strategy === "auto" && !req.allowSnap);
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
      if (frames.startOnKey || key === null) {
        // A keyframe at the start needs no head; no keyframe listed yet after it: keep watching.
        if (frames.startOnKey) return null;
      } else if (video.some((p) => p.dts >= key)) {
        return { frames, staged };
      }
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
  const stop = new AbortController();
  let listener: ((p: FfmpegProgress) => void) | undefined;
  // -follow: at the end of what is written so far, wait for more (30 s without a byte is an error). Not seekable:
  // the demuxers would otherwise read the file's end at open (MPEG-TS for its duration, Matroska for its index) and
  // wait there for the stage to end. The stage's header describes its streams: no need to probe into the payload.
  const follow = ["-follow", "1", "-seekable", "0", "-rw_timeout", "30000000", "-probesize", "32768"];
  follow.push("-analyzeduration", "0");
  const done = runFfmpeg(ffmpeg, [...follow, ...step.args], {
    signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
    timeoutMs: options.timeoutMs,
    onProgress: (p) => listener?.(p),
  }).then(
    () => true,
    () => false,
  );
  return {
    step,
    done,
    listen(onProgress) {
      listener = onProgress;
    },
    async stop() {
      stop.abort();
      await done;
    },
  };
}
