// Long because: CUT_PATHS is one table (twelve paths, each with its refusal, in the order they are tried) beside the
// in-process walk over it; split, the order would live in two places.
import { isAudioFormat } from "../../../../app/domain/media";
import type { StagedPackets } from "./staged/listing";
import type { CutFrames } from "./keyframes";
import { mkvCopyRefusal, planMkvCopy } from "./mkv-copy";
import { mp4CopyRefusal, planMp4Copy } from "./mp4-copy";
import { planMediabunnyCopy, readWithMediabunny, writableRefusal, type MediabunnyReading } from "./direct-copy";
import { planStreamedShorts, streamedShortsRefusal, type StreamedPlan } from "./streamed-shorts";
import type { CutRequest, DirectOutcome, PacketsAhead, PathOutcome, Refusal } from "./request";
import { audioPlan } from "./staged/audio";
import { copyPlan } from "./staged/copy";
import type { Plan, Step } from "./staged/plan";
import { reencodePlan } from "./staged/reencode";
import { remuxPlan, remuxRefusal } from "./staged/remux";
import { shortsPlan } from "./staged/shorts";
import { h264HeadStep, smartPlanH264 } from "./staged/smart-h264";
import { smartPlanVp9, vp9HeadStep } from "./staged/smart-vp9";
import { reencodeReasons, type Choice } from "./strategy";

/**
 * The ways to cut a clip, in the order they are tried: the first that does not refuse a request plans, writes and
 * checks it (paths/cut.ts). Paths 1–3 copy the clip in this process from the container's own index; path 4 encodes
 * a crop or burned-in captions straight from the source; what none of them takes is read once into a stage by
 * ffmpeg, and paths 5–11 cut it from there (every smart cut among them). Every refusal is traced by the path's name
 * (`refused by <name>: <why>`).
 * A path stays in this list only where it is the only one to take a clip, or at least 15% faster than the next one
 * that would on a realistic link (`BENCH_ONLY=paths` in bench/companion-cut.ts; bench/results/companion-cut.md).
 */

/** What the paths tried so far learned about the source, for the next one's `refuse`. */
export interface Learned {
  /** Why the byte copy for this container did not take the clip: mediabunny's trace names it. */
  byteCopy?: string;
  /** The strategy rule, applied by that byte copy, chose this cut instead of a copy. */
  chose?: "smart" | "reencode";
}

export interface InProcessContext {
  signal?: AbortSignal;
  /** How far a walk that reads the clip has read. */
  onRead?: (fraction: number) => void;
  /** mediabunny's reading of the index (the mediabunny copy's). */
  mediabunny(): Promise<MediabunnyReading>;
}

/** A path that writes the clip in this process. */
export interface InProcessPath {
  name: string;
  where: "in-process";
  /** Why it does not take the request, known before anything is read; null when it may. */
  refuse(req: CutRequest, learned: Learned): string | null;
  /** Reads the index and plans the clip, or refuses with what the reading showed. */
  plan(req: CutRequest, ctx: InProcessContext): Promise<PathOutcome>;
  /** A byte copy: the containers it reads (what it learns counts for those only). */
  reads?: RegExp;
}

/** The stage the staged paths cut from: one ffmpeg read of the clip's span, and the strategy rule's choice on it. */
export interface StagedSource {
  /** The stage file (MPEG-TS for H.264/HEVC, Matroska otherwise), its listing, and the work folder beside it. */
  stage: string;
  format: "mpegts" | "matroska";
  staged: StagedPackets;
  work: string;
  /** The clip's end in the source's seconds (the request's, within the source). */
  end: number;
  /** The frame plan and the strategy rule's choice for a clip with a picture; null for audio output. */
  frames: CutFrames | null;
  choice: Choice | null;
}

/** A path that cuts from the stage with ffmpeg. */
export interface StagedPath {
  name: string;
  where: "staged";
  refuse(req: CutRequest, source: StagedSource): string | null;
  /** The ffmpeg steps that write the clip to `out`. */
  plan(req: CutRequest, source: StagedSource, out: string): Plan;
  /** A smart cut: the head encode alone, which may start while the stage is still written (early-head.ts). */
  head?: (req: CutRequest, stage: string, work: string, frames: CutFrames, staged: StagedPackets) => Step | null;
  /** The stage format it cuts from. */
  stages?: StagedSource["format"];
}

/** A path that cuts straight from the source in one ffmpeg run, without a stage: what it needs is listed first. */
export interface StreamedPath {
  name: string;
  where: "streamed";
  refuse(req: CutRequest): string | null;
  plan(
    req: CutRequest,
    o: { ffprobe: string; work: string; out: string; signal?: AbortSignal; ahead?: PacketsAhead },
  ): Promise<StreamedPlan>;
}

export type CutPath = InProcessPath | StreamedPath | StagedPath;

/** What every in-process path refuses: what must be re-encoded, and what mediabunny's muxer would not write. */
function inProcessRefusal(req: CutRequest): string | null {
  if (!req.info.video) return "no picture";
  if (req.strategy === "reencode") return "reencode asked";
  // Smart cuts are staged: an in-process one was no faster on a realistic link (bench/results/companion-cut.md).
  if (req.strategy === "smart") return "smart asked: smart cuts are staged by ffmpeg";
  const needs = reencodeReasons(req);
  if (needs.length > 0) return `re-encode needed (${needs.join(", ")})`;
  if (req.captions) return "a captions track: muxed by a staged path";
  return writableRefusal(req);
}

/** The mediabunny copy reads with mediabunny unless the byte copy found the strategy rule rules a copy out. */
function mediabunnyRefusal(req: CutRequest, learned: Learned): string | null {
  const gate = inProcessRefusal(req);
  if (gate) return gate;
  // The strategy rule ruled the copy out, not the container: mediabunny's reading would choose the same.
  return learned.chose ? `auto chose ${learned.chose}` : null;
}

const MATROSKA = /matroska|webm/;

/** A byte copy's answer as a path's: `notTaken` is its refusal. */
const asPath = (o: Awaited<ReturnType<typeof planMp4Copy>>): PathOutcome =>
  "plan" in o ? o : { refused: o.notTaken, chose: o.chose };

const asReading = async (ctx: InProcessContext) => ctx.mediabunny();

/** Staged paths: what the strategy rule chose on the stage, and the stage format a smart cut needs. */
const chosen = (kind: Choice["kind"]) => (_req: CutRequest, s: StagedSource) =>
  !s.choice ? "audio output" : s.choice.kind !== kind ? `the stage's rule chose ${s.choice.kind}` : null;

const smartOn =
  (format: StagedSource["format"]) =>
  (req: CutRequest, s: StagedSource): string | null =>
    chosen("smart")(req, s) ?? (s.format !== format ? `the ${req.info.video?.codec} stage is ${s.format}` : null);

/** With the rule's reason (reported in the result). */
function withReason(plan: Plan, s: StagedSource): Plan {
  plan.reason = s.choice!.reason;
  return plan;
}

export const CUT_PATHS: readonly CutPath[] = [
  {
    name: "fragmented MP4 byte copy",
    where: "in-process",
    reads: /^(?!.*(matroska|webm))/,
    refuse: (req) => inProcessRefusal(req) ?? mp4CopyRefusal(req),
    plan: async (req, ctx) => asPath(await planMp4Copy(req, ctx.signal, ctx.onRead)),
  },
  {
    name: "Matroska byte copy",
    where: "in-process",
    reads: MATROSKA,
    refuse: (req) => inProcessRefusal(req) ?? mkvCopyRefusal(req),
    plan: async (req, ctx) => asPath(await planMkvCopy(req, ctx.signal, ctx.onRead)),
  },
  {
    name: "mediabunny copy",
    where: "in-process",
    refuse: mediabunnyRefusal,
    plan: async (req, ctx) => {
      const read = await asReading(ctx);
      return "refused" in read ? read : planMediabunnyCopy(read, req, ctx.signal);
    },
  },
  {
    // A crop or burned-in captions re-encode every picture: encoded straight from the source, no stage.
    name: "streamed shorts",
    where: "streamed",
    refuse: streamedShortsRefusal,
    plan: planStreamedShorts,
  },
  {
    name: "staged audio",
    where: "staged",
    refuse: (_req, s) => (s.choice ? "the clip has a picture" : null),
    plan: (req, s, out) => audioPlan(req, s.stage, out, s.end),
  },
  {
    name: "staged copy",
    where: "staged",
    refuse: (req, s) => chosen("copy")(req, s) ?? (req.captions ? "a captions track: staged remux" : null),
    plan: (req, s, out) => {
      const choice = s.choice as Extract<Choice, { kind: "copy" }>;
      return withReason(copyPlan(req, s.stage, out, s.frames!, choice.packets, choice.endPts, s.staged), s);
    },
  },
  {
    // A captions track alone: the copy with the track muxed beside it, the picture not re-encoded.
    name: "staged remux",
    where: "staged",
    refuse: (req, s) => remuxRefusal(req, s.choice),
    plan: (req, s, out) => {
      const choice = s.choice as Extract<Choice, { kind: "copy" }>;
      return remuxPlan(req, s.stage, s.work, out, s.frames!, choice, s.staged);
    },
  },
  {
    name: "staged H.264 smart cut",
    where: "staged",
    stages: "mpegts",
    refuse: smartOn("mpegts"),
    plan: (req, s, out) => withReason(smartPlanH264(req, s.stage, s.work, out, s.frames!, s.staged), s),
    head: h264HeadStep,
  },
  {
    name: "staged VP9 smart cut",
    where: "staged",
    stages: "matroska",
    refuse: smartOn("matroska"),
    plan: (req, s, out) => withReason(smartPlanVp9(req, s.stage, s.work, out, s.frames!, s.staged), s),
    head: vp9HeadStep,
  },
  {
    // A crop or captions re-encoded (from a source path 4 does not seek, or a track a copy cannot start): one run
    // that crops, scales and draws or muxes the captions.
    name: "staged shorts",
    where: "staged",
    refuse: (req, s) =>
      !s.choice
        ? "audio output"
        : !req.crop && !req.captions
          ? "no crop and no captions"
          : s.choice.kind === "copy"
            ? "a copy: staged remux adds the track"
            : null,
    plan: (req, s, out) => shortsPlan(req, s.stage, s.work, out, s.frames!, s.staged),
  },
  {
    name: "staged re-encode",
    where: "staged",
    refuse: (req, s) =>
      chosen("reencode")(req, s) ?? (req.crop || req.captions ? "crop or captions: staged shorts" : null),
    plan: (req, s, out) => withReason(reencodePlan(req, s.stage, out, s.frames!), s),
  },
];

/**
 * For the bench (bench/companion/paths.ts), which times a clip on the path that takes it and on the next path that
 * would: in-process paths left out by name, and the name of the one that took the last plan. The product never sets it.
 */
export const benchHook = { skip: new Set<string>(), took: "" };

const IN_PROCESS = CUT_PATHS.filter((p): p is InProcessPath => p.where === "in-process");
export const STREAMED_PATHS = CUT_PATHS.filter((p): p is StreamedPath => p.where === "streamed");
export const STAGED_PATHS = CUT_PATHS.filter((p): p is StagedPath => p.where === "staged");

/**
 * The in-process paths in order: the first plan, or the last refusal (the staged path is told it). Run by the cut, or
 * earlier by the job queue during the ledger's hold (early-plan.ts). Audio output never gets here.
 */
export async function planInProcess(
  req: CutRequest,
  o: { signal?: AbortSignal; onRead?: (fraction: number) => void } = {},
): Promise<DirectOutcome> {
  const learned: Learned = {};
  const refusals: Refusal[] = [];
  let reading: Promise<MediabunnyReading> | null = null;
  let stopWarnings = () => undefined as void;
  const ctx: InProcessContext = {
    ...o,
    mediabunny: () =>
      (reading ??= readWithMediabunny(req, `mediabunny (byte copy not taken: ${learned.byteCopy})`, o.signal).then(
        (r) => {
          stopWarnings = r.stopWarnings;
          return r.reading;
        },
      )),
  };
  let taken = false;
  try {
    for (const path of IN_PROCESS) {
      const why = benchHook.skip.has(path.name) ? "left out by the bench" : path.refuse(req, learned);
      const outcome: PathOutcome = why !== null ? { refused: why } : await path.plan(req, ctx);
      if ("plan" in outcome) {
        taken = true;
        benchHook.took = path.name;
        return { plan: outcome.plan, path: path.name, refusals };
      }
      refusals.push({ path: path.name, why: outcome.refused });
      if (path.reads?.test(req.info.formatName)) {
        learned.byteCopy = outcome.refused;
        learned.chose = "chose" in outcome ? outcome.chose : undefined;
      }
    }
    return { refused: refusals[refusals.length - 1]!.why, refusals };
  } finally {
    stopWarnings();
    // A reading no path took is closed (a path that refused after reading may have closed it already).
    const read = reading && !taken ? await (reading as Promise<MediabunnyReading>).catch(() => null) : null;
    if (read && !("refused" in read)) await read.close();
  }
}

/** The staged smart cut's head for a stage format, which may start while the stage is written. */
export function stagedHead(format: StagedSource["format"]) {
  return STAGED_PATHS.find((p) => p.head && p.stages === format)?.head;
}

/** Whether the request's clip is sound only (it goes straight to the staged audio path). */
export const soundOnly = (req: CutRequest) => isAudioFormat(req.format) || !req.info.video;
