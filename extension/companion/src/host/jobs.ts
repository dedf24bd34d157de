// Long because: one class, the job queue: admission, the hold's session, progress events, cancel and pruning act on
// the same private state.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { HoldRequest, MeResponse } from "../../../../app/domain/api";
import type { ClipJobRequest, CompanionEvent, Job, JobError, Progress } from "../../../../app/domain/companion";
import { fetchQualityBeforeAccount } from "../../../../app/domain/clip-quality";
import { isAudioFormat, qualityHeight, type Format } from "../../../../app/domain/media";
import { ApiClient, withRetry } from "./api-client";
import { cutClip, validateCut } from "../paths/cut";
import { startEarlyPlan, type EarlyPlan } from "../paths/early-plan";
import { listAhead } from "../paths/streamed-shorts";
import { CancelledError, ClipError, isAbortError } from "../errors";
import { clipBaseName, sanitizeName } from "./output";
import { captionsForCut, cropForSource } from "../shorts/options";
import { SourceCache, type SourceAsk } from "../source/source-cache";
import type { Tools } from "./tools";
import { startTrace, type Trace } from "../trace";

export interface Session {
  apiToken: string;
  apiBaseUrl: string;
}

export interface JobQueueOptions {
  tools: Tools;
  outputDir: string;
  concurrency: number;
  session: () => Session | null;
  fetchImpl?: typeof fetch;
  /** Loopback/private sources and local files allowed (--allow-private-sources). */
  allowPrivateSources?: boolean;
  /** yt-dlp's age warning, added to its failures. */
  ytDlpWarning?: string | null;
  /** The companion's resolved sources, shared with the panel's reports (dry-run.ts); the queue's own by default. */
  sources?: SourceCache;
}

/**
 * Finished jobs (done, failed, cancelled) stay listed for the extension for a while, then are forgotten: the newest
 * KEPT_FINISHED_JOBS at most, none older than FINISHED_JOB_TTL_MS, so a long-running companion's memory stays bounded.
 */
export const KEPT_FINISHED_JOBS = 100;
export const FINISHED_JOB_TTL_MS = 60 * 60_000;
const FINISHED = new Set(["done", "failed", "cancelled"]);

interface Entry {
  job: Job;
  controller: AbortController;
  /** The account the job is paid by, when it came with its own (native messaging hands the token with each job). */
  session: Session | null;
}

/**
 * Jobs run with bounded concurrency. Each one: resolve + probe → reserve credits, which answers the terms to cut
 * with → cut → verify → capture; any failure or cancel after the reservation releases it, and no output is written
 * before it succeeds. A crash leaves the hold to expire on the server.
 */
export class JobQueue extends EventEmitter<{ event: [CompanionEvent] }> {
  private readonly entries = new Map<string, Entry>();
  private readonly waiting: string[] = [];
  private running = 0;
  /** Resolved and probed sources: the companion's shared cache (the panel's reports use it too), or the queue's own. */
  private readonly sources: SourceCache;
  /** Sessions (API tokens) whose last hold answered with a watermark: their copies are not planned during the hold. */
  private readonly watermarked = new Set<string>();

  private ask(source: string, height: number | null): SourceAsk {
    return {
      source,
      height,
      allowPrivate: this.options.allowPrivateSources ?? false,
      ytDlpWarning: this.options.ytDlpWarning ?? null,
    };
  }

  /**
   * Resolve + probe once per source and wanted height, shared by every job of a batch (5 ranges of one video
   * run yt-dlp and ffprobe once) and by the panel's report of the same source. The shared work has its own time
   * limit, not one job's cancel signal; each job still stops waiting the moment it is cancelled.
   */
  private source(ask: SourceAsk, signal: AbortSignal, fromIndex: boolean, trace: Trace) {
    // A copy (or an auto cut, usually a copy) of a source the in-process path reads is probed from the container's
    // header in this process; ffprobe runs when that cannot describe it, or later when the cut needs it (fullProbe).
    const value = (async () => {
      const input = await trace.span("resolve", () => this.sources.resolve(ask));
      return { input, info: await trace.span("probe", () => this.sources.describe(ask, fromIndex)) };
    })();
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(new CancelledError());
      signal.addEventListener("abort", () => reject(new CancelledError()), { once: true });
    });
    aborted.catch(() => undefined);
    value.catch(() => undefined);
    return Promise.race([value, aborted]);
  }

  /** The job's captions and (a crop or burned-in captions) its packet windows, started once the source resolves. */
  private readAhead(r: ClipJobRequest, ask: SourceAsk, signal: AbortSignal, trace: Trace) {
    const resolved = this.sources.resolve(ask);
    const { tools } = this.options;
    const captions = resolved.then((input) =>
      trace.span("captions", () => captionsForCut(r, input, tools.ffmpeg, signal)),
    );
    captions.catch(() => undefined);
    const aspect = r.crop?.aspect ?? r.aspect ?? "original";
    const encodes = aspect !== "original" || r.captions?.mode === "burn";
    const packets = encodes ? listAhead(tools.ffprobe, resolved, r, signal) : null;
    return { captions, packets };
  }

  constructor(private readonly options: JobQueueOptions) {
    super();
    this.sources = options.sources ?? new SourceCache(options.tools);
  }

  /** Finished job ids, oldest first, with when they finished. */
  private readonly finished = new Map<string, number>();

  private prune() {
    const now = Date.now();
    for (const [id, at] of this.finished) {
      if (this.finished.size <= KEPT_FINISHED_JOBS && now - at <= FINISHED_JOB_TTL_MS) break;
      this.finished.delete(id);
      this.entries.delete(id);
      this.lastProgress.delete(id);
    }
  }

  list(): Job[] {
    this.prune();
    return [...this.entries.values()].map((e) => e.job);
  }

  get(id: string): Job | undefined {
    return this.entries.get(id)?.job;
  }

  /** Queues one clip; `session` (the account paying for it) overrides the queue's session for this job. */
  submit(request: ClipJobRequest, session: Session | null = null): Job {
    const now = new Date().toISOString();
    const job: Job = {
      id: randomUUID(),
      status: "queued",
      request,
      progress: { percent: 0, speed: null, etaSeconds: null },
      result: null,
      error: null,
      credits: { holdId: null, amount: null, state: "none" },
      createdAt: now,
      updatedAt: now,
    };
    this.entries.set(job.id, { job, controller: new AbortController(), session });
    this.waiting.push(job.id);
    this.publish(job);
    this.pump();
    return job;
  }

  cancel(id: string): Job {
    const entry = this.entries.get(id);
    if (!entry) throw new ClipError("not_found", "No such job.", 404);
    const { job } = entry;
    if (job.status === "done" || job.status === "failed" || job.status === "cancelled") return job;
    entry.controller.abort();
    if (job.status === "queued") {
      this.waiting.splice(this.waiting.indexOf(id), 1);
      this.update(job, { status: "cancelled", error: { code: "cancelled", message: "The job was cancelled." } });
    }
    return job;
  }

  /** Jobs not finished yet (queued, reserving, running, verifying). */
  active(): number {
    let n = 0;
    for (const { job } of this.entries.values()) if (!FINISHED.has(job.status)) n++;
    return n;
  }

  /**
   * Cancels every job and resolves once each has ended: its processes stopped, its partial file removed and its
   * hold released (the browser closed the native port, or the companion is told to stop).
   */
  async stopAll(): Promise<void> {
    for (const { job } of this.entries.values()) if (!FINISHED.has(job.status)) this.cancel(job.id);
    await this.idle();
  }

  /** Resolves when no job is queued or running (used on shutdown and in tests). */
  async idle(): Promise<void> {
    while (this.running > 0 || this.waiting.length > 0) await new Promise((r) => setTimeout(r, 50));
  }

  private pump() {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift();
      const entry = id ? this.entries.get(id) : undefined;
      if (!entry) continue;
      this.running++;
      void this.process(entry).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private publish(job: Job) {
    this.emit("event", { type: "job", job: structuredClone(job) });
  }

  private update(job: Job, patch: Partial<Job>) {
    Object.assign(job, patch, { updatedAt: new Date().toISOString() });
    this.publish(job);
    if (FINISHED.has(job.status) && !this.finished.has(job.id)) {
      this.finished.set(job.id, Date.now());
      this.lastProgress.delete(job.id);
      this.prune();
    }
  }

  private async process(entry: Entry): Promise<void> {
    const { job, controller } = entry;
    const signal = controller.signal;
    const { tools } = this.options;
    const session = entry.session ?? this.options.session();
    let api: ApiClient | null = null;
    const key = `clipcut-job-${job.id}`;
    const trace = startTrace(`job ${job.id.slice(0, 8)}`);
    let early: EarlyPlan | null = null;
    try {
      if (!session)
        throw new ClipError("session_required", "Connect your ClipCut account in the extension first.", 401);
      api = new ApiClient(session.apiBaseUrl, session.apiToken, this.options.fetchImpl);
      this.update(job, { status: "reserving" });
      const r = job.request;
      const format: Format = r.format ?? "mp4";
      // Page URLs: ask yt-dlp for the height the clip will have when the job says it (GIF and audio defaults
      // included); otherwise the best the source has, and the terms below cap it at the plan's maximum.
      const fetchAt = fetchQualityBeforeAccount(format, r.quality);
      const ask = this.ask(r.source, fetchAt && qualityHeight(fetchAt));
      // What needs only the resolved source runs while it is probed: the captions' fetch, and for a picture that
      // is re-encoded anyway (a crop, burned-in captions) the packets the streamed cut plans from.
      const ahead = this.readAhead(r, ask, signal, trace);
      const { input, info } = await trace.span("source", () =>
        this.source(
          ask,
          signal,
          !["smart", "reencode"].includes(r.strategy ?? "auto") && !isAudioFormat(format) && format !== "gif",
          trace,
        ),
      );
      const end = Math.min(r.endSeconds, info.durationSeconds);
      // A crop and captions: the box on this file's frame, and the track's cues, fetched before anything is
      // reserved (a track the video does not have is a 400; a burn-in without libass says what to install).
      const crop = cropForSource(r, info);
      const captions = await ahead.captions;
      const base = {
        input,
        info,
        startSeconds: r.startSeconds,
        endSeconds: end,
        format,
        strategy: r.strategy ?? "auto",
        allowSnap: r.allowSnap ?? false,
        outputDir: this.options.outputDir,
        baseName: r.fileName ? sanitizeName(r.fileName) : clipBaseName(r.name ?? input.title, r.startSeconds, end),
        crop,
        captions,
      } as const;
      // What does not depend on the account (range, streams) is refused before anything is reserved.
      validateCut({ ...base, quality: null, watermark: false });
      signal.throwIfAborted();
      // One call to the ledger: the hold, and with it the terms it was priced at (quality, scale, watermark), which
      // the server decides from the source's height by the one domain rule (clipTerms). A refusal (402/403) ends
      // the job with the server's message.
      const hold: HoldRequest = {
        name: (r.name ?? input.title).slice(0, 200) || "Clip",
        videoUrl: r.videoUrl ?? r.source, // the schema requires videoUrl for a local source
        startSeconds: r.startSeconds,
        endSeconds: end,
        format,
        quality: r.quality,
        sourceHeight: info.video?.height ?? null,
        // A crop is priced by the box's short side on this frame.
        sourceWidth: info.video?.width ?? null,
        aspect: r.aspect,
        crop: r.crop,
        cropPosition: r.cropPosition,
        captions: r.captions,
      };
      // The copy's index read runs during the hold's round trip, on the likeliest terms; adopted only when the
      // terms are exactly those (early-plan.ts).
      // A session whose last hold came with a watermark (a Free plan) would throw the early read away: none.
      if (!this.watermarked.has(session.apiToken)) early = startEarlyPlan(base, r.quality, signal);
      const { hold: held, terms } = await trace.span("reserve", () => api!.reserve(hold, key));
      this.update(job, {
        status: "running",
        credits: { holdId: held.id, amount: held.amount, state: "reserved" },
      });
      if (terms.watermark) this.watermarked.add(session.apiToken);
      else if (!isAudioFormat(format)) this.watermarked.delete(session.apiToken);
      const cut = { ...base, quality: terms.scaleTo, requestedQuality: terms.requested, watermark: terms.watermark };
      validateCut(cut);
      const directPlan = early?.adopt(cut);
      const directReads = directPlan && early?.reads;
      early = null;
      const result = await cutClip(cut, {
        fullProbe: () => this.sources.fullProbe(ask),
        directPlan,
        directReads,
        packetsAhead: ahead.packets ?? undefined,
        tools,
        signal,
        trace,
        onProgress: (progress: Progress) => this.progress(job, progress),
      });
      this.update(job, { status: "verifying", result });
      try {
        const after = await trace.span("capture", () => withRetry(() => api!.capture(held.id, `${key}:capture`)));
        // The balance the capture answered rides with the job: the extension shows it without asking /me.
        this.update(job, { status: "done", credits: { ...job.credits, state: "captured", after } });
        trace.end("done");
      } catch (error) {
        // The clip exists; the hold will expire unclaimed. Report it rather than hide the file.
        this.update(job, {
          status: "done",
          credits: { ...job.credits, state: "capture_failed" },
          error: toJobError(error),
        });
      }
    } catch (error) {
      await early?.discard();
      const cancelled = signal.aborted || isAbortError(error);
      if (job.credits.holdId && api) {
        const holdId = job.credits.holdId;
        await withRetry(() => api!.release(holdId, `${key}:release`))
          .then(() => (job.credits = { ...job.credits, state: "released" }))
          .catch(() => undefined); // the hold expires on its own
      }
      trace.end(cancelled ? "cancelled" : "failed");
      this.update(job, {
        status: cancelled ? "cancelled" : "failed",
        error: cancelled ? { code: "cancelled", message: "The job was cancelled." } : toJobError(error),
      });
    }
  }

  private lastProgress = new Map<string, number>();
  private progress(job: Job, progress: Progress) {
    job.progress = progress;
    const now = Date.now();
    if (now - (this.lastProgress.get(job.id) ?? 0) < 250 && progress.percent < 100) return;
    this.lastProgress.set(job.id, now);
    this.emit("event", { type: "progress", jobId: job.id, progress });
  }
}

function toJobError(error: unknown): JobError {
  if (error instanceof ClipError) return { code: error.code, message: error.message, status: error.status };
  return { code: "internal", message: "The clip could not be made.", status: 500 };
}

export type { MeResponse };
