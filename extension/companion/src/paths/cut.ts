import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { CutResult } from "../../../../app/domain/companion";
import { isAudioFormat, qualityHeight } from "../../../../app/domain/media";
import { EXTENSIONS } from "./encode";
import { CancelledError } from "../errors";
import { runFfmpeg } from "../ffmpeg";
import { adoptIfSame, startEarlyHead, waitForHead, type EarlyHead } from "./staged/early-head";
import { planFrames, toSeconds, toTicks } from "./keyframes";
import { readListing } from "./staged/listing";
import { reserveOutput, type OutputSlot } from "../host/output";
import { STAGE_MARGIN_SECONDS, STAGE_OFFSET, type Plan, type Step } from "./staged/plan";
import { audioPlan } from "./staged/audio";
import { copyPlan } from "./staged/copy";
import { reencodePlan } from "./staged/reencode";
import { h264HeadStep, smartPlanH264 } from "./staged/smart-h264";
import { smartPlanVp9, vp9HeadStep } from "./staged/smart-vp9";
import { probeMedia } from "../source/probe";
import { ProgressTracker } from "./progress";
import type { CutHooks, CutRequest } from "./request";
import { planDirectCopy, type DirectPlan } from "./direct-copy";
import { readProgress } from "./read-progress";
import { checkWrittenClip } from "../check/written-clip";
import { runStage, stagePaths, type StageSpec } from "./staged/stage";
import { chooseStrategy, expectsFullEncode, expectsSmartCut, stagingFormat, validateCut } from "./strategy";
import { startTrace, type Trace } from "../trace";
import { verifyOutput, type Verified } from "../check/verify";

/**
 * The cut's orchestration: stage the source once, choose the strategy, run the chosen plan's ffmpeg steps, check
 * the result and hand the file over. The strategy choice lives in strategy.ts, each plan in staged/ (a new codec
 * or strategy is one new file there), the shared plan parts in plan.ts and the progress in progress.ts.
 */
export type { CutHooks, CutRequest } from "./request";
export { validateCut } from "./strategy";

/** The share of a copy job its walk of the clip's span stands for, when the walk reads the clip (read-progress.ts). */
const WALK_SHARE = 0.9;

/**
 * Every ffmpeg run is bounded: a generous floor plus a slow worst case (a 4K software encode at 0.05× realtime,
 * a slow network at a tenth of realtime), so a stuck server or encoder ends the job with an error, not a hang.
 */
function stepTimeoutMs(mediaSeconds: number, network: boolean): number {
  return Math.round((120 + mediaSeconds * (network ? 10 : 20)) * 1000);
}

/** Cuts one clip. Writes only the final file into the output folder, and only when it is complete. */
export async function cutClip(request: CutRequest, hooks: CutHooks): Promise<CutResult> {
  let req = request;
  validateCut(req);
  const began = Date.now();
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const work = await mkdtemp(join(tmpdir(), "clipcut-")).catch(async (error: unknown) => {
    // A plan started before this call (the job queue's, during the hold) holds its source open: end it.
    const early = await hooks.directPlan?.catch(() => null);
    if (early && "plan" in early) await early.plan.close();
    throw error;
  });
  let slot: OutputSlot | null = null;
  const progress = new ProgressTracker(hooks.onProgress);
  const ownTrace = hooks.trace ? null : startTrace("cut");
  const trace = hooks.trace ?? ownTrace!;
  // The head encode started while the stage was written (early-head.ts), if any.
  const headWatch = new AbortController();
  let heading: Promise<EarlyHead | null> = Promise.resolve(null);
  try {
    const audioOnlyOut = isAudioFormat(req.format);
    // MPEG-TS carries H.264/HEVC with in-band parameter sets (the smart cut joins TS parts byte by byte), but
    // FFmpeg 5.1's TS muxer turns VP9 and AV1 into data streams, so those are staged in Matroska.
    const stageFormat = stagingFormat(req);
    const smart = SMART[stageFormat];
    const remote = req.input.kind === "http";
    // The read is most of a copy or smart cut but a small part of a full re-encode: weight it so the ETA,
    // computed from the share done so far, is realistic from the start.
    const stageShare = expectsFullEncode(req) ? (remote ? 0.12 : 0.04) : remote ? 0.45 : 0.15;
    progress.plan(stageShare);
    // One read of the source: from the keyframe before start to just past the end, stream-copied.
    const spec: StageSpec = {
      startSeconds: req.startSeconds,
      readSeconds: end - req.startSeconds + STAGE_MARGIN_SECONDS,
      format: stageFormat,
      video: !audioOnlyOut && req.info.video !== null,
      audio: req.info.audio !== null,
    };
    const onProgress = progress.step(end - req.startSeconds, toSeconds(STAGE_OFFSET) + req.startSeconds);
    // Matroska keeps 1 ms timestamps: plan on what the stage holds.
    const clockTicks = stageFormat === "matroska" ? 90 : 1;
    // A smart cut's head starts as soon as the stage holds its frames, not when the whole range is read.
    const watchHead = (paths: { stage: string; listing: string }, stageDone: Promise<unknown>) =>
      expectsSmartCut(req)
        ? waitForHead({
            listing: paths.listing,
            clockTicks,
            startTick: toTicks(req.startSeconds) + STAGE_OFFSET,
            endTick: toTicks(end) + STAGE_OFFSET,
            stageDone,
            signal: headWatch.signal,
          }).then((found) => {
            const step = found && smart.head(req, paths.stage, work, found.frames, found.staged);
            if (!step) return null;
            const started = startEarlyHead(hooks.tools.ffmpeg, step, {
              signal: hooks.signal,
              timeoutMs: stepTimeoutMs(step.mediaSeconds, remote),
            });
            void trace.span("head (early)", () => started.done);
            return started;
          })
        : Promise.resolve(null);
    // Copies read the container's own index and write the clip in this process, without a stage (decision 002,
    // 11); what that path does not take falls back to the staged ffmpeg path below, with the reason traced.
    // A source probed from its index lacks what only ffprobe describes (profile, level, colour: a smart cut's encoders
    // match them; the ffmpeg plans use more): when the cut will likely be smart, ffprobe runs beside the index read.
    const fullInfo = req.info.fromIndex && expectsSmartCut(req) ? withFfprobe(req, hooks) : null;
    fullInfo?.catch(() => undefined);
    if (!audioOnlyOut) {
      const probed = fullInfo?.then((r) => r.info);
      probed?.catch(() => undefined);
      // A walk that reads the whole clip (WebM, fragmented MP4) is most of the job; the write is the rest.
      progress.plan(WALK_SHARE);
      const reads = hooks.directReads ?? readProgress();
      const onRead = progress.step(1, 0);
      let walked = false;
      reads.listen((fraction) => {
        walked = true;
        onRead({ outTimeSeconds: fraction, frame: null, speed: null });
      });
      let direct = await trace.span(
        "index",
        () => hooks.directPlan ?? planDirectCopy(req, hooks.signal, probed, reads),
      );
      if ("plan" in direct && direct.plan.strategy === "smart" && req.info.fromIndex && !fullInfo) {
        await direct.plan.close();
        req = await trace.span("probe (smart cut)", () => withFfprobe(req, hooks));
        direct = await trace.span("index", () => planDirectCopy(req, hooks.signal));
      }
      // What the walk showed stays: the cut that follows (its write, or another cut) has the rest of the bar.
      if (walked) progress.carry();
      if ("plan" in direct) {
        return await cutInProcess(req, hooks, direct.plan, { trace, progress, began, ownTrace });
      }
      void trace.span(`ffmpeg path: ${direct.refused}`, async () => undefined);
      progress.plan(stageShare);
    }
    // The ffmpeg plans need ffprobe's full description of the streams.
    if (req.info.fromIndex) req = await trace.span("probe (ffmpeg path)", () => fullInfo ?? withFfprobe(req, hooks));
    hooks.signal?.throwIfAborted();
    const { stage, listing } = stagePaths(work, stageFormat);
    const staging = runStage(
      hooks.tools.ffmpeg,
      req.input,
      spec,
      { stage, listing },
      {
        signal: hooks.signal,
        timeoutMs: stepTimeoutMs(end - req.startSeconds, remote),
        onProgress,
      },
    );
    heading = watchHead({ stage, listing }, staging);
    await trace.span("stage", () => staging);
    progress.next();
    const staged = await readListing(listing, clockTicks);
    hooks.signal?.throwIfAborted();
    slot = await reserveOutput(req.outputDir, req.baseName, EXTENSIONS[req.format]);

    let plan: Plan;
    if (audioOnlyOut || !req.info.video) {
      plan = audioPlan(req, stage, slot.partPath, end);
    } else {
      const packets = staged.video;
      const frames = planFrames(packets, toTicks(req.startSeconds) + STAGE_OFFSET, toTicks(end) + STAGE_OFFSET);
      const strategy = chooseStrategy(req, frames, packets);
      plan =
        strategy.kind === "copy"
          ? copyPlan(req, stage, slot.partPath, frames, strategy.packets, strategy.endPts, staged)
          : strategy.kind === "smart"
            ? smart.plan(req, stage, work, slot.partPath, frames, staged)
            : reencodePlan(req, stage, slot.partPath, frames);
      plan.reason = strategy.reason;
    }
    // The plan adopts the early head when it would run exactly that step; otherwise the early one is stopped.
    const adopted = await adoptIfSame(await heading, plan.steps);
    const total = plan.steps.reduce((sum, s) => sum + s.weight, 0) || 1;
    // Steps marked concurrent run together with the one before them; the group is one share of the progress,
    // reported by its first step.
    const groups: Step[][] = [];
    for (const step of plan.steps) {
      const last = groups[groups.length - 1];
      if (step.concurrent && last) last.push(step);
      else groups.push([step]);
    }
    for (const group of groups) {
      progress.plan(((1 - stageShare) * group.reduce((sum, s) => sum + s.weight, 0)) / total);
      await runGroup(
        group,
        (step, i, signal) =>
          trace.span(`step ${basename(step.args[step.args.length - 1] ?? "")}`, async () => {
            const onStepProgress = i === 0 ? progress.step(step.mediaSeconds, step.origin) : undefined;
            // An adopted early head that failed (it followed a stage that went wrong) is run again the usual way.
            if (adopted?.step === step && (await adopted.finish(signal, onStepProgress))) return;
            if (step.writeFirst) await writeFile(step.writeFirst.path, step.writeFirst.text);
            await runFfmpeg(hooks.tools.ffmpeg, step.args, {
              signal,
              timeoutMs: stepTimeoutMs(step.mediaSeconds, false),
              onProgress: onStepProgress,
            });
          }),
        hooks.signal,
      );
      progress.next();
    }
    const known = plan.known && {
      ...plan.known,
      audioPackets: plan.audioListing ? (await readListing(plan.audioListing)).audio.length : plan.known.audioPackets,
    };
    const verified = await trace.span("verify", async () => {
      if (!known)
        return verifyOutput(hooks.tools.ffprobe, slot!.partPath, {
          video: plan.expectVideo,
          audio: plan.expectAudio,
          expectedSeconds: plan.endSeconds - plan.startSeconds,
          signal: hooks.signal,
        });
      // The planned frame count (and audio packet count); a smart cut's clip also starts as planned: its first
      // picture a keyframe at 0, its sound within one audio frame of it (plus the encoder's priming, ≤ one frame).
      const starts =
        plan.strategy === "smart"
          ? { keyBytes: null, audioStart: plan.expectAudio ? 0 : null, slack: 0.025, ffmpegMuxed: true }
          : null;
      return checkWrittenClip(slot!.partPath, req.format, known, starts, {
        ffmpeg: hooks.tools.ffmpeg,
        signal: hooks.signal,
      });
    });
    await slot.commit();
    const size = (await stat(slot.path)).size;
    hooks.onProgress?.({ percent: 100, speed: progress.lastSpeed, etaSeconds: 0 });
    ownTrace?.end(plan.strategy);
    return clipResult(req, plan, verified, {
      output: slot.path,
      size,
      began,
      watermark: req.watermark && !audioOnlyOut,
    });
  } catch (error) {
    await slot?.discard();
    throw error;
  } finally {
    // Nothing may still write into the work folder when it is removed.
    headWatch.abort();
    await (await heading.catch(() => null))?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** The request with ffprobe's description of the source instead of the one read from its index. */
async function withFfprobe(req: CutRequest, hooks: CutHooks): Promise<CutRequest> {
  const info = await (hooks.fullProbe?.() ?? probeMedia(hooks.tools.ffprobe, req.input, { signal: hooks.signal }));
  const probed = { ...req, info };
  validateCut(probed);
  return probed;
}

/**
 * The copy or H.264 smart cut written in this process from the planned packets (direct-copy.ts, direct-smart.ts):
 * the file is checked against the plan before it is handed over.
 */
async function cutInProcess(
  req: CutRequest,
  hooks: CutHooks,
  plan: DirectPlan,
  o: { trace: Trace; progress: ProgressTracker; began: number; ownTrace: Trace | null },
): Promise<CutResult> {
  let slot: OutputSlot | null = null;
  try {
    hooks.signal?.throwIfAborted();
    slot = await reserveOutput(req.outputDir, req.baseName, EXTENSIONS[req.format]);
    const seconds = plan.endSeconds - plan.startSeconds;
    o.progress.plan(1);
    const onProgress = o.progress.step(seconds, 0);
    if (plan.via) void o.trace.span(`in-process via ${plan.via}`, async () => undefined);
    const verified = await o.trace.span(`${plan.strategy} (in-process)`, () =>
      plan.write(slot!.partPath, {
        signal: hooks.signal,
        ffmpeg: hooks.tools.ffmpeg,
        onProgress: (fraction) => onProgress({ outTimeSeconds: fraction * seconds, frame: null, speed: null }),
      }),
    );
    const reads = plan.stats();
    const mb = (n: number) => (n / 1e6).toFixed(2);
    const read = `read ${reads.requests} requests, ${mb(reads.bytes)} MB, at most ${mb(reads.mostHeld)} MB held`;
    await o.trace.span(read, async () => undefined);
    await slot.commit();
    const size = (await stat(slot.path)).size;
    hooks.onProgress?.({ percent: 100, speed: o.progress.lastSpeed, etaSeconds: 0 });
    o.ownTrace?.end(plan.strategy);
    return clipResult(req, plan, verified, {
      output: slot.path,
      size,
      began: o.began,
      watermark: false,
    });
  } catch (error) {
    await slot?.discard();
    throw error;
  } finally {
    await plan.close();
  }
}

/** The smart cut for the stage's codec (H.264 in MPEG-TS, VP9 in Matroska): its plan, and its head on its own. */
const SMART = {
  mpegts: { plan: smartPlanH264, head: h264HeadStep },
  matroska: { plan: smartPlanVp9, head: vp9HeadStep },
} as const;

/**
 * Runs steps at the same time. When one fails the others are stopped (their process groups killed) and awaited
 * before the error is passed on, so nothing still writes into the work folder while it is removed.
 */
async function runGroup(
  steps: Step[],
  run: (step: Step, index: number, signal: AbortSignal) => Promise<void>,
  outer?: AbortSignal,
): Promise<void> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  outer?.addEventListener("abort", onAbort, { once: true });
  if (outer?.aborted) stop.abort();
  try {
    const results = await Promise.allSettled(
      steps.map((step, i) =>
        run(step, i, stop.signal).catch((error: unknown) => {
          stop.abort();
          throw error;
        }),
      ),
    );
    // The first real failure, not the cancellations it caused in the other steps.
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed.length > 0) {
      const own = failed.find((r) => !(r.reason instanceof CancelledError));
      throw (own ?? failed[0]!).reason;
    }
  } finally {
    outer?.removeEventListener("abort", onAbort);
  }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** What the extension is told about a finished clip: the exact range the file holds, as read back. */
function clipResult(
  req: CutRequest,
  plan: Pick<Plan, "strategy" | "startSeconds" | "snapped" | "reason">,
  verified: Verified,
  o: { output: string; size: number; began: number; watermark: boolean },
): CutResult {
  return {
    output: o.output,
    strategy: plan.strategy,
    format: req.format,
    requestedStartSeconds: req.startSeconds,
    requestedEndSeconds: req.endSeconds,
    startSeconds: round6(plan.startSeconds),
    endSeconds: round6(plan.startSeconds + verified.durationSeconds),
    durationSeconds: round6(verified.durationSeconds),
    snapped: plan.snapped,
    width: verified.width,
    height: verified.height,
    frames: verified.frames,
    watermark: o.watermark,
    sizeBytes: o.size,
    elapsedSeconds: round6((Date.now() - o.began) / 1000),
    reason: plan.reason,
    sourceHeight: req.info.video?.height ?? null,
    notes: resultNotes(req),
  };
}

function resultNotes(req: CutRequest): string[] {
  const notes: string[] = [];
  const asked = req.requestedQuality ?? req.quality;
  const height = req.info.video?.height;
  if (asked && height && !isAudioFormat(req.format) && qualityHeight(asked) > height) {
    notes.push(`This video is at most ${height}p, so the clip is ${height}p: ClipCut never upscales.`);
  }
  return notes;
}
