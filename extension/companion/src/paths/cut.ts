// Long because: it runs both halves of CUT_PATHS (the in-process writes, and the staged run: stage once, steps,
// check) on one run state (progress, trace, cancel, the output slot) that a split would pass around whole.
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import type { CutResult } from "../../../../app/domain/companion";
import { isAudioFormat, qualityHeight } from "../../../../app/domain/media";
import { checkWrittenClip } from "../check/written-clip";
import { verifyOutput, type Verified } from "../check/verify";
import { CancelledError } from "../errors";
import { runFfmpeg } from "../ffmpeg";
import { reserveOutput, type OutputSlot } from "../host/output";
import { probeMedia } from "../source/probe";
import { withRangeProxy } from "../source/range-proxy";
import { startTrace, type Trace } from "../trace";
import { EXTENSIONS } from "./encode";
import { planInProcess, STAGED_PATHS, STREAMED_PATHS, stagedHead, type StagedSource, type StreamedPath } from "./index";
import { planFrames, readFromSeconds, toSeconds, toTicks } from "./keyframes";
import { ProgressTracker } from "./progress";
import { readProgress } from "./read-progress";
import type { CutHooks, CutRequest, DirectOutcome, DirectPlan } from "./request";
import { adoptIfSame, startEarlyHead, waitForHead, type EarlyHead } from "./staged/early-head";
import { readListing } from "./staged/listing";
import { STAGE_MARGIN_SECONDS, STAGE_OFFSET, type Plan, type Step } from "./staged/plan";
import { runStage, stagePaths, type StageSpec } from "./staged/stage";
import { chooseStrategy, expectsFullEncode, expectsSmartCut, stagingFormat, validateCut } from "./strategy";

/**
 * The cut: for each path in CUT_PATHS (paths/index.ts), in order: does it refuse? else plan, write, check. Paths 1–3
 * copy the clip in this process from the container's index (planInProcess, which the job queue may have run during
 * the hold); what they refuse is staged once by ffmpeg and cut by the first staged path that takes it. Every refusal
 * is traced by the path's name.
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

/** One cut's shared state: its hooks, trace and progress. */
interface Run {
  hooks: CutHooks;
  trace: Trace;
  ownTrace: Trace | null;
  progress: ProgressTracker;
  began: number;
}

const note = (trace: Trace, text: string) => void trace.span(text, async () => undefined);

/** Cuts one clip. Writes only the final file into the output folder, and only when it is complete. */
export async function cutClip(request: CutRequest, hooks: CutHooks): Promise<CutResult> {
  validateCut(request);
  const ownTrace = hooks.trace ? null : startTrace("cut");
  const trace = hooks.trace ?? ownTrace!;
  const run: Run = { hooks, trace, ownTrace, progress: new ProgressTracker(hooks.onProgress), began: Date.now() };
  let req = request;
  // The read is most of a copy or smart cut but a small part of a full re-encode: weight it so the ETA,
  // computed from the share done so far, is realistic from the start.
  const remote = req.input.kind === "http";
  const stageShare = expectsFullEncode(req) ? (remote ? 0.12 : 0.04) : remote ? 0.45 : 0.15;
  run.progress.plan(stageShare);
  // A source probed from its index lacks what only ffprobe describes (profile, level, colour: a smart cut's encoders
  // match them; the ffmpeg plans use more): when the cut will likely be smart (staged), ffprobe runs beside the index
  // read.
  const fullInfo = req.info.fromIndex && expectsSmartCut(req) ? withFfprobe(req, hooks) : null;
  fullInfo?.catch(() => undefined);
  if (!isAudioFormat(req.format)) {
    const direct = await planDirect(req, run);
    if ("plan" in direct) return await cutInProcess(direct.req, hooks, direct.plan, run);
    note(trace, `ffmpeg path: ${direct.refused}`);
    req = direct.req;
    run.progress.plan(stageShare);
  }
  // A path that encodes straight from the source needs no more than the index's description of it.
  const streamed = firstStreamed(req, trace);
  if (streamed) return cutStreamed(req, run, streamed);
  // The ffmpeg plans need ffprobe's full description of the streams.
  if (req.info.fromIndex) req = await trace.span("probe (ffmpeg path)", () => fullInfo ?? withFfprobe(req, hooks));
  hooks.signal?.throwIfAborted();
  return cutStaged(req, run, stageShare);
}

/** The first path that cuts straight from the source and takes the request (each refusal traced), if any. */
function firstStreamed(req: CutRequest, trace: Trace): StreamedPath | null {
  if (isAudioFormat(req.format)) return null;
  for (const path of STREAMED_PATHS) {
    const why = path.refuse(req);
    if (why === null) return path;
    note(trace, `refused by ${path.name}: ${why}`);
  }
  return null;
}

/** Path 4: the packets around the range listed, then one ffmpeg run from the source (through its range proxy). */
async function cutStreamed(req: CutRequest, run: Run, path: StreamedPath): Promise<CutResult> {
  const { hooks, trace } = run;
  const work = await mkdtemp(join(tmpdir(), "clipcut-"));
  let slot: OutputSlot | null = null;
  try {
    slot = await reserveOutput(req.outputDir, req.baseName, EXTENSIONS[req.format]);
    const out = slot.partPath;
    const o = { ffprobe: hooks.tools.ffprobe, work, out, signal: hooks.signal, ahead: hooks.packetsAhead };
    const streamed = await trace.span(`plan (${path.name})`, () => path.plan(req, o));
    const plan = await withRangeProxy(req.input, async (proxied) => {
      const planned = streamed.onInput(proxied);
      await runSteps(planned, null, run, 0);
      return planned;
    });
    const verified = await trace.span("verify", () => checkStaged(req, plan, out, hooks));
    return await finish(req, run, plan, verified, slot);
  } catch (error) {
    await slot?.discard();
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A checked clip moved into place, its .srt beside it, and the result. */
async function finish(req: CutRequest, run: Run, plan: Plan, verified: Verified, slot: OutputSlot): Promise<CutResult> {
  await slot.commit();
  if (plan.sidecar !== undefined) await writeSidecar(slot.path, plan.sidecar);
  const size = (await stat(slot.path)).size;
  run.hooks.onProgress?.({ percent: 100, speed: run.progress.lastSpeed, etaSeconds: 0 });
  run.ownTrace?.end(plan.strategy);
  const watermark = req.watermark && !isAudioFormat(req.format);
  return clipResult(req, plan, verified, { output: slot.path, size, began: run.began, watermark });
}

/** Paths 1–3 (or the job queue's early run of them), each refusal traced by name. */
async function planDirect(req: CutRequest, run: Run): Promise<DirectOutcome & { req: CutRequest }> {
  const { hooks, trace, progress } = run;
  // A walk that reads the whole clip (WebM, fragmented MP4) is most of the job; the write is the rest.
  progress.plan(WALK_SHARE);
  const reads = hooks.directReads ?? readProgress();
  const onRead = progress.step(1, 0);
  let walked = false;
  reads.listen((fraction) => {
    walked = true;
    onRead({ outTimeSeconds: fraction, frame: null, speed: null });
  });
  const signal = hooks.signal;
  const direct = await trace.span("index", () => hooks.directPlan ?? planInProcess(req, { signal, onRead: reads }));
  for (const r of direct.refusals) note(trace, `refused by ${r.path}: ${r.why}`);
  // What the walk showed stays: the cut that follows (its write, or another cut) has the rest of the bar.
  if (walked) progress.carry();
  return { ...direct, req };
}

/** Paths 5–11: one ffmpeg read of the clip's span into a stage, then the first staged path that takes it. */
async function cutStaged(req: CutRequest, run: Run, stageShare: number): Promise<CutResult> {
  const { hooks, trace, progress } = run;
  const work = await mkdtemp(join(tmpdir(), "clipcut-"));
  let slot: OutputSlot | null = null;
  // The head encode started while the stage was written (early-head.ts), if any.
  const headWatch = new AbortController();
  let heading: Promise<EarlyHead | null> = Promise.resolve(null);
  try {
    const staging = stageOnce(req, work, run, headWatch.signal);
    heading = staging.heading;
    const source = await staging.source;
    progress.next();
    hooks.signal?.throwIfAborted();
    slot = await reserveOutput(req.outputDir, req.baseName, EXTENSIONS[req.format]);
    let plan: Plan | null = null;
    for (const path of STAGED_PATHS) {
      const why = path.refuse(req, source);
      if (why === null) {
        plan = path.plan(req, source, slot.partPath);
        break;
      }
      note(trace, `refused by ${path.name}: ${why}`);
    }
    if (!plan) throw new Error("No staged path takes this clip.");
    await runSteps(plan, await adoptIfSame(await heading, plan.steps), run, stageShare);
    const verified = await trace.span("verify", () => checkStaged(req, plan, slot!.partPath, hooks));
    return await finish(req, run, plan, verified, slot);
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

/** The .srt beside a finished clip, under the clip's own name; never over an existing file (then "name (1).srt"). */
async function writeSidecar(clip: string, text: string): Promise<void> {
  const slot = await reserveOutput(dirname(clip), basename(clip, extname(clip)), "srt");
  try {
    await writeFile(slot.partPath, text);
    await slot.commit();
  } catch (error) {
    await slot.discard();
    throw error;
  }
}

/**
 * The one read of the source: from the keyframe before start to just past the end, stream-copied. A smart cut's
 * head starts as soon as the stage holds its frames, not when the whole range is read (`heading`).
 */
function stageOnce(
  req: CutRequest,
  work: string,
  run: Run,
  headSignal: AbortSignal,
): { source: Promise<StagedSource>; heading: Promise<EarlyHead | null> } {
  const { hooks, trace, progress } = run;
  const end = Math.min(req.endSeconds, req.info.durationSeconds);
  const remote = req.input.kind === "http";
  // MPEG-TS carries H.264/HEVC with in-band parameter sets (the smart cut joins TS parts byte by byte), but
  // FFmpeg 5.1's TS muxer turns VP9 and AV1 into data streams, so those are staged in Matroska.
  const format = stagingFormat(req);
  const from = readFromSeconds(req.startSeconds, req.info.video);
  const spec: StageSpec = {
    startSeconds: from,
    readSeconds: end - from + STAGE_MARGIN_SECONDS,
    format,
    video: !isAudioFormat(req.format) && req.info.video !== null,
    audio: req.info.audio !== null,
  };
  // Matroska keeps 1 ms timestamps: plan on what the stage holds.
  const clockTicks = format === "matroska" ? 90 : 1;
  const { stage, listing } = stagePaths(work, format);
  const onProgress = progress.step(end - req.startSeconds, toSeconds(STAGE_OFFSET) + req.startSeconds);
  const timeoutMs = stepTimeoutMs(end - req.startSeconds, remote);
  const staging = runStage(
    hooks.tools.ffmpeg,
    req.input,
    spec,
    { stage, listing },
    { ...hooks, timeoutMs, onProgress },
  );
  const head = stagedHead(format);
  const heading =
    expectsSmartCut(req) && head
      ? waitForHead({
          ...{ listing, clockTicks, stageDone: staging, signal: headSignal },
          startTick: toTicks(req.startSeconds) + STAGE_OFFSET,
          endTick: toTicks(end) + STAGE_OFFSET,
        }).then((found) => {
          const step = found && head(req, stage, work, found.frames, found.staged);
          if (!step) return null;
          const started = startEarlyHead(hooks.tools.ffmpeg, step, {
            signal: hooks.signal,
            timeoutMs: stepTimeoutMs(step.mediaSeconds, remote),
          });
          void trace.span("head (early)", () => started.done);
          return started;
        })
      : Promise.resolve(null);
  const source = trace
    .span("stage", () => staging)
    .then(async (): Promise<StagedSource> => {
      const staged = await readListing(listing, clockTicks);
      const base = { stage, format, staged, work, end, frames: null, choice: null };
      if (isAudioFormat(req.format) || !req.info.video) return base;
      const frames = planFrames(staged.video, toTicks(req.startSeconds) + STAGE_OFFSET, toTicks(end) + STAGE_OFFSET);
      return { ...base, frames, choice: chooseStrategy(req, frames, staged.video) };
    });
  return { source, heading };
}

/**
 * The plan's ffmpeg steps. Steps marked concurrent run together with the one before them; the group is one share
 * of the progress, reported by its first step. The plan adopts the early head when it would run exactly that step.
 */
async function runSteps(
  plan: Plan,
  adopted: Awaited<ReturnType<typeof adoptIfSame>>,
  run: Run,
  stageShare: number,
): Promise<void> {
  const { hooks, trace, progress } = run;
  const total = plan.steps.reduce((sum, s) => sum + s.weight, 0) || 1;
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
          for (const f of [step.writeFirst ?? []].flat()) await writeFile(f.path, f.text);
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
}

/** The staged clip checked against its plan: its packets when the plan knows them, else ffprobe's reading. */
async function checkStaged(req: CutRequest, plan: Plan, file: string, hooks: CutHooks): Promise<Verified> {
  const known = plan.known && {
    ...plan.known,
    audioPackets: plan.audioListing ? (await readListing(plan.audioListing)).audio.length : plan.known.audioPackets,
  };
  if (!known)
    return verifyOutput(hooks.tools.ffprobe, file, {
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
  return checkWrittenClip(file, req.format, known, starts, { ffmpeg: hooks.tools.ffmpeg, signal: hooks.signal });
}

/** The request with ffprobe's description of the source instead of the one read from its index. */
async function withFfprobe(req: CutRequest, hooks: CutHooks): Promise<CutRequest> {
  const info = await (hooks.fullProbe?.() ?? probeMedia(hooks.tools.ffprobe, req.input, { signal: hooks.signal }));
  const probed = { ...req, info };
  validateCut(probed);
  return probed;
}

/**
 * The copy written in this process from the planned packets (mp4-copy.ts, mkv-copy.ts, direct-copy.ts):
 * the file is checked against the plan before it is handed over.
 */
async function cutInProcess(req: CutRequest, hooks: CutHooks, plan: DirectPlan, o: Run): Promise<CutResult> {
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
