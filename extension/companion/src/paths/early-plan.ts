import { decideQuality } from "../../../../app/domain/clip-quality";
import { isAudioFormat, QUALITIES, type Quality } from "../../../../app/domain/media";
import { planInProcess } from "./index";
import { readProgress, type ReadProgress } from "./read-progress";
import type { CutRequest, DirectOutcome } from "./request";
import { expectsSmartCut } from "./strategy";

/**
 * The in-process paths' plan (paths/index.ts), started while the ledger's hold is asked (jobs.ts): reading the container's index is
 * most of a copy, and the hold's round trip to the ClipCut API is pure waiting. The plan is started on the terms a
 * clip gets when its plan neither caps the quality nor adds a watermark (the one domain rule, `decideQuality`); the
 * job adopts it when the hold's terms give exactly that request, and stops it otherwise (a Free plan's watermark, a
 * capped quality), so the clip is always planned on the terms it was charged for.
 */
export interface EarlyPlan {
  /** The plan when `req` is the request it was started for (same quality and watermark); else stops it: undefined. */
  adopt(req: CutRequest): Promise<DirectOutcome> | undefined;
  /** Stops it (the hold was refused, or the job ended): its reads end, a plan it made is closed. */
  discard(): Promise<void>;
  /** How far its walk has read, for the cut that adopts it. */
  reads: ReadProgress;
}

/** Starts the plan for the likeliest terms, or null when the cut will not be an in-process copy anyway. */
export function startEarlyPlan(
  base: Omit<CutRequest, "quality" | "watermark">,
  asked: Quality | undefined,
  signal: AbortSignal,
): EarlyPlan | null {
  const video = base.info.video;
  if (!video || isAudioFormat(base.format) || base.format === "gif") return null;
  const planMax = QUALITIES[QUALITIES.length - 1]!;
  const { scaleTo } = decideQuality({ format: base.format, asked, planMax, sourceHeight: video.height });
  const guess: CutRequest = { ...base, quality: scaleTo, watermark: false };
  // A smart cut's plan also waits for ffprobe's description (cut.ts): only copies are started early.
  if (guess.strategy === "smart" || guess.strategy === "reencode" || expectsSmartCut(guess)) return null;
  const stop = new AbortController();
  const reads = readProgress();
  const outcome = planInProcess(guess, { signal: AbortSignal.any([signal, stop.signal]), onRead: reads });
  // Until it is adopted, a failed read is nobody's error.
  outcome.catch(() => undefined);
  const discard = async () => {
    stop.abort();
    const done = await outcome.catch(() => null);
    if (done && "plan" in done) await done.plan.close();
  };
  return {
    adopt(req) {
      if (req.quality === guess.quality && req.watermark === guess.watermark) return outcome;
      void discard();
      return undefined;
    },
    discard,
    reads,
  };
}
